// The public write API (write_builder.h): batches checked against the table's columns, row
// kinds only for primary-key tables, two writers' messages committed as one snapshot, commit
// identifiers of a commit user committed once (a replay is skipped), overwrite specs checked,
// and the rows read back through ReadBuilder.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

class WriteApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", "2"}};
    ASSERT_OK(catalog.CreateTable("db.pk", spec));
    spec.primary_keys.clear();
    spec.options = {};
    ASSERT_OK(catalog.CreateTable("db.append", spec));
  }

  Table Get(const std::string& name) {
    auto table = Catalog::Filesystem(dir_.path()).GetTable(name);
    EXPECT_OK(table);
    return *table;
  }

  static ColumnBatch Rows(const DataTypePtr& type,
                          const std::vector<std::pair<int64_t, const char*>>& rows) {
    ColumnBatch batch(type);
    for (const auto& [id, v] : rows) {
      EXPECT_OK(
          batch.AppendRow({Value::Int64(id), v == nullptr ? Value::Null() : Value::String(v)}));
    }
    return batch;
  }

  static std::vector<std::string> ReadAll(const Table& table) {
    std::vector<std::string> out;
    auto reader = test::ReaderOf(table.NewReadBuilder());
    EXPECT_OK(reader);
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) out.push_back(batch.GetRow(i).DebugString());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  test::TempDir dir_;
};

TEST_F(WriteApiTest, BatchesMustHaveTheTablesColumns) {
  Table table = Get("db.append");
  auto writer = table.NewWriteBuilder().NewWrite();
  ASSERT_OK(writer);
  // Wrong type.
  ColumnBatch wrong(
      DataType::Row({Field(0, "id", DataType::Int(false)), Field(1, "v", DataType::String())}));
  ASSERT_OK(wrong.AppendRow({Value::Int32(1), Value::Null()}));
  Status st = (*writer)->Write(wrong);
  EXPECT_TRUE(st.code() == StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("column 'id'"), std::string::npos) << st.ToString();
  // Too few columns.
  ColumnBatch narrow(DataType::Row({Field(0, "id", DataType::BigInt(false))}));
  EXPECT_TRUE(test::HasError((*writer)->Write(narrow), StatusCode::kInvalidArgument,
                             {"columns, the batch 1"}));
  // Null in a NOT NULL column.
  ColumnBatch nulls((*writer)->input_type());
  ASSERT_OK(nulls.AppendRow({Value::Int64(1), Value::Null()}));
  ASSERT_OK(nulls.AppendRow({Value::Null(), Value::Null()}));
  st = (*writer)->Write(nulls);
  EXPECT_NE(st.message().find("row 1"), std::string::npos) << st.ToString();
  // Row kinds other than +I on an append table.
  ColumnBatch one = Rows((*writer)->input_type(), {{1, "a"}});
  const RowKind kinds[] = {RowKind::kDelete};
  st = (*writer)->Write(one, kinds);
  EXPECT_NE(st.message().find("no primary key"), std::string::npos) << st.ToString();
  EXPECT_OK((*writer)->Close());
  EXPECT_TRUE(table.Snapshots()->empty());
}

TEST_F(WriteApiTest, TwoWritersOneCommitAndIdentifiersCommitOnce) {
  Table table = Get("db.pk");
  WriteBuilder builder = table.NewWriteBuilder().WithCommitUser("job-1");
  auto a = builder.NewWrite();
  auto b = builder.NewWrite();
  ASSERT_OK(a);
  ASSERT_OK(b);
  ASSERT_OK((*a)->Write(Rows((*a)->input_type(), {{1, "a1"}, {2, "a2"}})));
  ASSERT_OK((*b)->Write(Rows((*b)->input_type(), {{3, "b3"}})));
  auto ma = (*a)->PrepareCommit(1);
  auto mb = (*b)->PrepareCommit(1);
  ASSERT_OK(ma);
  ASSERT_OK(mb);
  std::vector<CommitMessage> messages = std::move(*ma);
  for (CommitMessage& m : *mb) messages.push_back(std::move(m));
  auto commit = builder.NewCommit();
  ASSERT_OK(commit);
  auto result = (*commit)->Commit(messages, 1);
  ASSERT_OK(result);
  EXPECT_EQ(result->snapshot_ids, std::vector<int64_t>{1});

  // The same identifier again (a replay after a restart) is skipped.
  auto replay = (*commit)->Commit(messages, 1);
  ASSERT_OK(replay);
  EXPECT_TRUE(replay->skipped);
  auto pending = (*commit)->FilterCommitted({1, 2});
  ASSERT_OK(pending);
  EXPECT_EQ(*pending, std::vector<int64_t>{2});

  // Identifier 2: an update and a delete through row kinds (of keys this writer wrote: one
  // bucket has one writer at a time, as in Java).
  const RowKind kinds[] = {RowKind::kUpdateAfter, RowKind::kDelete};
  ASSERT_OK((*a)->Write(Rows((*a)->input_type(), {{1, "a1'"}, {2, nullptr}}), kinds));
  auto m2 = (*a)->PrepareCommit(2);
  ASSERT_OK(m2);
  result = (*commit)->Commit(std::move(*m2), 2);
  ASSERT_OK(result);
  EXPECT_EQ(result->snapshot_ids, std::vector<int64_t>{2});
  EXPECT_OK((*a)->Close());
  EXPECT_OK((*b)->Close());

  EXPECT_EQ(ReadAll(Get("db.pk")), (std::vector<std::string>{"(1, 'a1'')", "(3, 'b3')"}));

  // Full compaction through the API: one COMPACT snapshot, same rows.
  WriteBuilder compact_builder = table.NewWriteBuilder();
  auto compactor = compact_builder.NewWrite();
  ASSERT_OK(compactor);
  ASSERT_OK((*compactor)->Compact({}, /*full=*/true));
  auto mc = (*compactor)->PrepareCommit();
  ASSERT_OK(mc);
  auto cc = compact_builder.NewCommit();
  ASSERT_OK(cc);
  result = (*cc)->Commit(std::move(*mc));
  ASSERT_OK(result);
  ASSERT_EQ(result->snapshot_ids.size(), 1u);
  EXPECT_OK((*compactor)->Close());
  auto snapshots = table.Snapshots();
  ASSERT_OK(snapshots);
  ASSERT_EQ(snapshots->size(), 3u);
  EXPECT_EQ(snapshots->back().commit_kind, "COMPACT");
  EXPECT_EQ(ReadAll(Get("db.pk")), (std::vector<std::string>{"(1, 'a1'')", "(3, 'b3')"}));
  auto report = Get("db.pk").Check();
  ASSERT_OK(report);
  EXPECT_TRUE(report->ok()) << report->problems.front();
}

TEST_F(WriteApiTest, OverwriteSpecMustNamePartitionKeys) {
  EXPECT_TRUE(
      test::HasError(Get("db.append").NewWriteBuilder().WithOverwrite({{"v", "x"}}).NewWrite(),
                     StatusCode::kInvalidArgument, {"'v', which is not a partition key"}));
}

TEST_F(WriteApiTest, DynamicOptionsApplyToTheWrite) {
  EXPECT_TRUE(test::HasError(
      Get("db.append").NewWriteBuilder().WithOption("target-file-size", "not-a-size").NewWrite(),
      StatusCode::kInvalidArgument, {"option 'target-file-size': cannot parse 'not-a-size'"}));
}

}  // namespace
}  // namespace sluice
