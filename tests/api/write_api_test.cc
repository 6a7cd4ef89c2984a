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

namespace sluice {
namespace {

DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

class WriteApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_TRUE(catalog.CreateDatabase("db").ok());
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", "2"}};
    ASSERT_TRUE(catalog.CreateTable("db.pk", spec).ok());
    spec.primary_keys.clear();
    spec.options = {};
    ASSERT_TRUE(catalog.CreateTable("db.append", spec).ok());
  }

  Table Get(const std::string& name) {
    auto table = Catalog::Filesystem(dir_.path()).GetTable(name);
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return *table;
  }

  static ColumnBatch Rows(const DataTypePtr& type,
                          const std::vector<std::pair<int64_t, const char*>>& rows) {
    ColumnBatch batch(type);
    for (const auto& [id, v] : rows) {
      EXPECT_TRUE(
          batch.AppendRow({Value::Int64(id), v == nullptr ? Value::Null() : Value::String(v)})
              .ok());
    }
    return batch;
  }

  static std::vector<std::string> ReadAll(const Table& table) {
    std::vector<std::string> out;
    auto reader = testing::ReaderOf(table.NewReadBuilder());
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_TRUE(more.ok()) << more.status().ToString();
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) out.push_back(batch.GetRow(i).DebugString());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  testing::TempDir dir_;
};

TEST_F(WriteApiTest, BatchesMustHaveTheTablesColumns) {
  Table table = Get("db.append");
  auto writer = table.NewWriteBuilder().NewWrite();
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  // Wrong type.
  ColumnBatch wrong(
      DataType::Row({Field(0, "id", DataType::Int(false)), Field(1, "v", DataType::String())}));
  ASSERT_TRUE(wrong.AppendRow({Value::Int32(1), Value::Null()}).ok());
  Status st = (*writer)->Write(wrong);
  EXPECT_TRUE(st.code() == StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("column 'id'"), std::string::npos) << st.ToString();
  // Too few columns.
  ColumnBatch narrow(DataType::Row({Field(0, "id", DataType::BigInt(false))}));
  EXPECT_TRUE((*writer)->Write(narrow).code() == StatusCode::kInvalidArgument);
  // Null in a NOT NULL column.
  ColumnBatch nulls((*writer)->input_type());
  ASSERT_TRUE(nulls.AppendRow({Value::Int64(1), Value::Null()}).ok());
  ASSERT_TRUE(nulls.AppendRow({Value::Null(), Value::Null()}).ok());
  st = (*writer)->Write(nulls);
  EXPECT_NE(st.message().find("row 1"), std::string::npos) << st.ToString();
  // Row kinds other than +I on an append table.
  ColumnBatch one = Rows((*writer)->input_type(), {{1, "a"}});
  const RowKind kinds[] = {RowKind::kDelete};
  st = (*writer)->Write(one, kinds);
  EXPECT_NE(st.message().find("no primary key"), std::string::npos) << st.ToString();
  EXPECT_TRUE((*writer)->Close().ok());
  EXPECT_TRUE(table.Snapshots()->empty());
}

TEST_F(WriteApiTest, TwoWritersOneCommitAndIdentifiersCommitOnce) {
  Table table = Get("db.pk");
  WriteBuilder builder = table.NewWriteBuilder().WithCommitUser("job-1");
  auto a = builder.NewWrite();
  auto b = builder.NewWrite();
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_TRUE((*a)->Write(Rows((*a)->input_type(), {{1, "a1"}, {2, "a2"}})).ok());
  ASSERT_TRUE((*b)->Write(Rows((*b)->input_type(), {{3, "b3"}})).ok());
  auto ma = (*a)->PrepareCommit(1);
  auto mb = (*b)->PrepareCommit(1);
  ASSERT_TRUE(ma.ok() && mb.ok());
  std::vector<CommitMessage> messages = std::move(*ma);
  for (CommitMessage& m : *mb) messages.push_back(std::move(m));
  auto commit = builder.NewCommit();
  ASSERT_TRUE(commit.ok());
  auto result = (*commit)->Commit(messages, 1);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->snapshot_ids, std::vector<int64_t>{1});

  // The same identifier again (a replay after a restart) is skipped.
  auto replay = (*commit)->Commit(messages, 1);
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_TRUE(replay->skipped);
  auto pending = (*commit)->FilterCommitted({1, 2});
  ASSERT_TRUE(pending.ok());
  EXPECT_EQ(*pending, std::vector<int64_t>{2});

  // Identifier 2: an update and a delete through row kinds (of keys this writer wrote: one
  // bucket has one writer at a time, as in Java).
  const RowKind kinds[] = {RowKind::kUpdateAfter, RowKind::kDelete};
  ASSERT_TRUE((*a)->Write(Rows((*a)->input_type(), {{1, "a1'"}, {2, nullptr}}), kinds).ok());
  auto m2 = (*a)->PrepareCommit(2);
  ASSERT_TRUE(m2.ok());
  result = (*commit)->Commit(std::move(*m2), 2);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->snapshot_ids, std::vector<int64_t>{2});
  EXPECT_TRUE((*a)->Close().ok());
  EXPECT_TRUE((*b)->Close().ok());

  EXPECT_EQ(ReadAll(Get("db.pk")), (std::vector<std::string>{"(1, 'a1'')", "(3, 'b3')"}));

  // Full compaction through the API: one COMPACT snapshot, same rows.
  WriteBuilder compact_builder = table.NewWriteBuilder();
  auto compactor = compact_builder.NewWrite();
  ASSERT_TRUE(compactor.ok());
  ASSERT_TRUE((*compactor)->Compact({}, /*full=*/true).ok());
  auto mc = (*compactor)->PrepareCommit();
  ASSERT_TRUE(mc.ok());
  auto cc = compact_builder.NewCommit();
  ASSERT_TRUE(cc.ok());
  result = (*cc)->Commit(std::move(*mc));
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->snapshot_ids.size(), 1u);
  EXPECT_TRUE((*compactor)->Close().ok());
  auto snapshots = table.Snapshots();
  ASSERT_TRUE(snapshots.ok());
  ASSERT_EQ(snapshots->size(), 3u);
  EXPECT_EQ(snapshots->back().commit_kind, "COMPACT");
  EXPECT_EQ(ReadAll(Get("db.pk")), (std::vector<std::string>{"(1, 'a1'')", "(3, 'b3')"}));
  auto report = Get("db.pk").Check();
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(report->ok()) << report->problems.front();
}

TEST_F(WriteApiTest, OverwriteSpecMustNamePartitionKeys) {
  auto writer = Get("db.append").NewWriteBuilder().WithOverwrite({{"v", "x"}}).NewWrite();
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.status().message().find("'v', which is not a partition key"), std::string::npos)
      << writer.status().ToString();
}

TEST_F(WriteApiTest, DynamicOptionsApplyToTheWrite) {
  auto writer =
      Get("db.append").NewWriteBuilder().WithOption("target-file-size", "not-a-size").NewWrite();
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.status().message().find("target-file-size"), std::string::npos)
      << writer.status().ToString();
}

}  // namespace
}  // namespace sluice
