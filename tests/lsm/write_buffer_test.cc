#include "sluice/lsm/write_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "lsm_test_util.h"
#include "sluice/io/rolling_data_file_writer.h"

namespace sluice {
namespace {

// The buffer's raw output for one STRING key column (the order its sort gives) against the
// order of CompareColumnRows, then the row index: the fast sort of byte keys (an eight-byte
// prefix first) must agree on prefixes, shared first eight bytes, bytes from 0x80 on, zero
// bytes, empty keys and repeated keys.
TEST(WriteBufferTest, SortsByteKeysAsTheColumnComparatorDoes) {
  const std::vector<std::string> keys = {"b",
                                         "a",
                                         "",
                                         "abcdefgh",
                                         "abcdefghi",
                                         "abcdefgg",
                                         "abcdefgh",
                                         "\x80",
                                         "\x7f",
                                         "\xff\xff",
                                         "ab",
                                         std::string("ab\0", 3),
                                         "a",
                                         "abcdefgh\x01",
                                         "abcdefgh\xff",
                                         "zzzzzzzzzzzz",
                                         "zzzzzzzz",
                                         "123456789",
                                         "12345678",
                                         "9"};
  TableSchema schema =
      test::MakeSchema({DataField{0, "k", DataType::String(false), std::nullopt, std::nullopt},
                        DataField{1, "v", DataType::Int(), std::nullopt, std::nullopt}},
                       {"k"}, {});
  WriteBuffer buffer(schema.LogicalRowType(), {0}, {}, true, KeyValueFileType(schema));
  ColumnBatch batch(schema.LogicalRowType());
  for (size_t i = 0; i < keys.size(); ++i) {
    batch.column(0)->AppendBytes(keys[i]);
    batch.column(1)->AppendFixed<int32_t>(static_cast<int32_t>(i));
  }
  batch.set_num_rows(static_cast<int64_t>(keys.size()));
  std::vector<int64_t> rows(keys.size());
  std::iota(rows.begin(), rows.end(), 0);
  buffer.Put(batch, rows.data(), static_cast<int64_t>(rows.size()), nullptr, 0);

  std::vector<int32_t> sorted;
  ASSERT_OK_AND_ASSIGN(auto merge, test::MakeMergeFunction(schema));
  ASSERT_OK(buffer.ForEach(
      merge.get(), [](const ColumnBatch&) { return Status::OK(); },
      [&](const ColumnBatch& out) {
        // Key, sequence number, kind, then the row: `v` is the last column.
        const ColumnVector& v = *out.column(out.num_columns() - 1);
        for (int64_t i = 0; i < out.num_rows(); ++i) sorted.push_back(v.data<int32_t>()[i]);
        return Status::OK();
      }));

  std::vector<int32_t> expected(keys.size());
  std::iota(expected.begin(), expected.end(), 0);
  std::sort(expected.begin(), expected.end(), [&](int32_t a, int32_t b) {
    const int c = CompareColumnRows(*batch.column(0), a, *batch.column(0), b);
    return c != 0 ? c < 0 : a < b;
  });
  EXPECT_EQ(sorted, expected);
}

}  // namespace
}  // namespace sluice
