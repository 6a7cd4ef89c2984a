#include "sluice/row/bucket.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "row_test_util.h"
#include "sluice/base/json_reader.h"
#include "sluice/types/data_type_json.h"
#include "test_util.h"

namespace sluice {
namespace {

using testing::FromHex;
using testing::RowOf;

struct Vector {
  const char* row_hex;
  int32_t hash;
  int32_t bucket2;
  int32_t bucket3;
  int32_t bucket10;
};

// Java bucket-id vectors from format-spec 6.3.
TEST(BucketTest, SpecVectors) {
  const Vector vectors[] = {
      {"0000000000000000 0000000000000000", -300363099, 1, 0, 9},
      {"0000000000000000 0100000000000000", 1465514398, 0, 1, 8},
      {"0000000000000000 0200000000000000", 1340390384, 0, 2, 4},
      {"0000000000000000 ffffffff00000000", 1133687267, 1, 2, 7},
      {"0001000000000000 0000000000000000", -1748325344, 0, 2, 4},
      {"0000000000000000 416c696365000085", 1285337400, 0, 0, 0},
      {"0000000000000000 1200000010000000 54776f20726f616473206469766572676564000000000000",
       617909672, 0, 2, 2},
      {"0000000000000000 0100000000000000 6100000000000081", -948407462, 0, 2, 2},
  };
  for (const Vector& v : vectors) {
    const std::string bytes = FromHex(v.row_hex);
    const int arity = static_cast<int>(bytes.size() == 32 ? 2 : 1);
    auto row = BinaryRowView::Make(bytes, arity);
    ASSERT_TRUE(row.ok());
    EXPECT_EQ(row->HashCode(), v.hash) << v.row_hex;
    EXPECT_EQ(DefaultBucket(*row, 2), v.bucket2) << v.row_hex;
    EXPECT_EQ(DefaultBucket(*row, 3), v.bucket3) << v.row_hex;
    EXPECT_EQ(DefaultBucket(*row, 10), v.bucket10) << v.row_hex;
  }
}

TEST(BucketTest, KeysEncodeToTheVectorRows) {
  auto int_key = RowOf({DataType::Int()});
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int32(0)}, *int_key, 10), 9);
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int32(-1)}, *int_key, 10), 7);
  EXPECT_EQ(*DefaultBucketOfKey({Value::Null()}, *int_key, 3), 2);
  // BIGINT 1 has the same bytes as INT 1.
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int64(1)}, *RowOf({DataType::BigInt()}), 10), 8);
  auto str_key = RowOf({DataType::String()});
  EXPECT_EQ(*DefaultBucketOfKey({Value::String("Two roads diverged")}, *str_key, 10), 2);
  auto pair_key = RowOf({DataType::Int(), DataType::String()});
  EXPECT_EQ(*DefaultBucketOfKey({Value::Int32(1), Value::String("a")}, *pair_key, 3), 2);
  EXPECT_FALSE(DefaultBucketOfKey({Value::Int32(1)}, *int_key, 0).ok());
}

TEST(BucketTest, JavaRemainderSemantics) {
  EXPECT_EQ(BucketOfHash(-7, 3), 1);  // -7 % 3 == -1 in Java
  EXPECT_EQ(BucketOfHash(7, 3), 1);
  EXPECT_EQ(BucketOfHash(INT32_MIN, 1), 0);
  EXPECT_EQ(BucketOfHash(INT32_MIN, 7), 2);  // |-2147483648 % 7| = |-2|
  EXPECT_EQ(BucketOfHash(INT32_MAX, 10), 7);
  EXPECT_EQ(ModBucket(-7, 3), 2);  // Math.floorMod
  EXPECT_EQ(ModBucket(7, 3), 1);
  EXPECT_EQ(ModBucket(INT64_MIN, 10), 2);
}

// Corpus: cases.jsonl reads restricted to one bucket list rows whose bucket-key values must hash
// to that bucket under the table's `bucket` and `bucket-key` options.
TEST(BucketTest, CorpusCasesWithABucketFilter) {
  std::ifstream in(testing::CompatDir() + "/cases.jsonl");
  ASSERT_TRUE(in) << "corpus not found under " << testing::CompatDir();
  int cases = 0;
  int rows = 0;
  std::string line;
  while (std::getline(in, line)) {
    auto parsed = ParseJson(line);
    ASSERT_TRUE(parsed.ok());
    const Json& c = *parsed;
    const Json& read = c["read"];
    if (!read.contains("bucket")) continue;
    const std::string table = testing::CompatTablesDir() + "/" + c["table"].get<std::string>();
    auto schema_json = ParseJson(testing::ReadFileOrFail(table + "/schema/schema-0"));
    ASSERT_TRUE(schema_json.ok());
    const Json& options = (*schema_json)["options"];
    const int32_t num_buckets = std::stoi(options["bucket"].get<std::string>());
    const std::string bucket_key = options["bucket-key"].get<std::string>();
    // Single-column bucket keys in this corpus.
    ASSERT_EQ(bucket_key.find(','), std::string::npos);
    DataTypePtr key_type;
    for (const Json& field : (*schema_json)["fields"]) {
      if (field["name"] != bucket_key) continue;
      auto t = DataTypeFromJson(field["type"]);
      ASSERT_TRUE(t.ok());
      key_type = RowOf({*t});
    }
    ASSERT_NE(key_type, nullptr) << table;
    size_t column = 0;
    while (c["columns"][column] != bucket_key) ++column;
    const int32_t expected = static_cast<int32_t>(read["bucket"].get<int64_t>());
    for (const Json& row : c["rows"]) {
      auto bucket = DefaultBucketOfKey(
          {Value::Int32(static_cast<int32_t>(row[column].get<int64_t>()))}, *key_type, num_buckets);
      ASSERT_TRUE(bucket.ok());
      EXPECT_EQ(*bucket, expected) << c["id"] << " row " << row.dump();
      ++rows;
    }
    ++cases;
  }
  EXPECT_GE(cases, 10);
  EXPECT_GE(rows, 30);
  std::printf("bucket corpus: %d cases, %d rows checked\n", cases, rows);
}

// Corpus: the rt branch of append_table_with_rt_branch is a primary-key table (dt, name),
// partitioned by dt, 2 buckets, so the bucket key is the STRING `name`. Each key was written
// once; the data file holding it sits in the bucket directory the hash must pick.
TEST(BucketTest, CorpusStringKeysLandInTheirBucketDirectory) {
  const std::string table = testing::CompatTablesDir() +
                            "/parquet/append_table_with_rt_branch.db/append_table_with_rt_branch";
  const std::map<std::string, std::string> key_to_partition = {
      {"peach", "dt=20240725"}, {"cherry", "dt=20240726"}, {"pear", "dt=20240726"}};
  auto key_type = RowOf({DataType::String(false)});
  for (const auto& [key, partition] : key_to_partition) {
    auto bucket = DefaultBucketOfKey({Value::String(key)}, *key_type, 2);
    ASSERT_TRUE(bucket.ok());
    // The parquet footer statistics keep the key as plain bytes: find the file that holds it.
    int found_in = -1;
    for (int b = 0; b < 2; ++b) {
      const std::string dir = table + "/" + partition + "/bucket-" + std::to_string(b);
      for (const std::string& file : testing::ListFilesRecursive(dir)) {
        if (testing::ReadFileOrFail(file).find(key) != std::string::npos) found_in = b;
      }
    }
    EXPECT_EQ(*bucket, found_in) << key;
  }
}

}  // namespace
}  // namespace sluice
