// TableRead over a multi-split corpus table: the same rows whatever the threads and the
// buffer bound; ordered reads keep split order; limits cut exactly; an abandoned reader stops.
// A split of files of two schemas reads the same rows whether a file is decoded straight into
// the output (no filter, columns in order, file as stored) or through the schema evolution.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/value_json.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice {
namespace {

const char kTable[] = "parquet/append_09.db/append_09";

std::string RowText(const ColumnBatch& batch, int64_t row) {
  std::string text;
  for (int col = 0; col < batch.num_columns(); ++col) {
    AppendValueJson(batch.column(col)->GetValue(row), *batch.column(col)->type(), &text);
    text += ' ';
  }
  return text;
}

std::vector<std::string> ReadRows(BatchReader* reader) {
  std::vector<std::string> rows;
  ColumnBatch batch(reader->output_type());
  while (true) {
    auto more = reader->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r) rows.push_back(RowText(batch, r));
  }
  return rows;
}

// Every split read alone, in plan order.
std::vector<std::string> SplitBySplit(const ReadBuilder& builder, const TableScanPlan& plan) {
  std::vector<std::string> rows;
  auto read = builder.NewRead();
  EXPECT_OK(read);
  if (!read.ok()) return rows;
  for (const Split& split : plan.splits) {
    auto reader = read->CreateReader(split);
    EXPECT_OK(reader);
    if (!reader.ok()) break;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t r = 0; r < batch.num_rows(); ++r) rows.push_back(RowText(batch, r));
    }
  }
  return rows;
}

ReadBuilder NewRead() {
  auto table = Table::Open(test::CompatTablesDir() + "/" + kTable);
  EXPECT_OK(table);
  return table->NewReadBuilder();
}

TEST(TableReadTest, SameRowsForEveryThreadCountAndBufferBound) {
  auto plan = test::PlanOf(NewRead());
  ASSERT_OK(plan);
  ASSERT_GE(plan->splits.size(), 2u);
  const std::vector<std::string> in_order = SplitBySplit(NewRead(), *plan);
  ASSERT_FALSE(in_order.empty());
  for (int threads : {1, 2, 4}) {
    for (int buffered : {1, 2, 64}) {
      for (bool ordered : {false, true}) {
        auto reader = test::ReaderOf(
            NewRead().WithThreads(threads).WithMaxBufferedBatches(buffered).WithOrdered(ordered));
        ASSERT_OK(reader);
        std::vector<std::string> rows = ReadRows(reader->get());
        if (!ordered) std::sort(rows.begin(), rows.end());
        std::vector<std::string> expected = in_order;
        if (!ordered) std::sort(expected.begin(), expected.end());
        EXPECT_EQ(rows, expected) << threads << " threads, " << buffered << " buffered";
      }
    }
  }
}

TEST(TableReadTest, LimitCutsExactlyAndOrderedLimitKeepsThePrefix) {
  auto plan = test::PlanOf(NewRead());
  ASSERT_OK(plan);
  const std::vector<std::string> in_order = SplitBySplit(NewRead(), *plan);
  for (int64_t limit : {int64_t{0}, int64_t{1}, int64_t{3}, static_cast<int64_t>(in_order.size()),
                        static_cast<int64_t>(in_order.size()) + 5}) {
    auto reader = test::ReaderOf(NewRead().WithLimit(limit).WithOrdered(true).WithThreads(2));
    ASSERT_OK(reader);
    const std::vector<std::string> rows = ReadRows(reader->get());
    const size_t expected = std::min(static_cast<size_t>(limit), in_order.size());
    ASSERT_EQ(rows.size(), expected) << "limit " << limit;
    EXPECT_TRUE(std::equal(rows.begin(), rows.end(), in_order.begin()));
  }
}

TEST(TableReadTest, BatchRowsBoundEveryBatchAndKeepTheRows) {
  auto plan = test::PlanOf(NewRead());
  ASSERT_OK(plan);
  const std::vector<std::string> in_order = SplitBySplit(NewRead(), *plan);
  ASSERT_GT(in_order.size(), 3u);
  for (int64_t rows : {int64_t{1}, int64_t{3}, int64_t{1} << 20}) {
    auto reader = test::ReaderOf(NewRead().WithBatchRows(rows).WithOrdered(true).WithThreads(2));
    ASSERT_OK(reader);
    std::vector<std::string> read;
    int64_t largest = 0;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      ASSERT_OK(more);
      if (!*more) break;
      largest = std::max(largest, batch.num_rows());
      for (int64_t r = 0; r < batch.num_rows(); ++r) read.push_back(RowText(batch, r));
    }
    EXPECT_EQ(read, in_order) << rows << " rows a batch";
    EXPECT_LE(largest, rows);
    if (rows == 3) EXPECT_EQ(largest, 3);
  }
  for (int64_t rows : {int64_t{0}, int64_t{-5}}) {
    EXPECT_TRUE(test::HasError(NewRead().WithBatchRows(rows).NewRead(),
                               StatusCode::kInvalidArgument,
                               {"batch rows must be positive, got " + std::to_string(rows)}));
  }
}

TEST(TableReadTest, AbandonedReaderStopsItsWorkers) {
  auto reader = test::ReaderOf(NewRead().WithThreads(4).WithMaxBufferedBatches(1));
  ASSERT_OK(reader);
  ColumnBatch batch((*reader)->output_type());
  auto more = (*reader)->Next(&batch);
  ASSERT_OK(more);
  EXPECT_TRUE(*more);
  reader->reset();  // must not hang with producers waiting on a full buffer
}

TEST(TableReadTest, ProjectionAndDeltaModeShapeTheOutputType) {
  auto plan = NewRead().WithProjection({"f3", "f0"}).NewRead();
  ASSERT_OK(plan);
  ASSERT_EQ(plan->output_type()->num_fields(), 2);
  EXPECT_EQ(plan->output_type()->fields()[0].name, "f3");
  auto delta = NewRead().WithSnapshot(3).WithMode(ScanMode::kDelta).NewRead();
  ASSERT_OK(delta);
  EXPECT_EQ(delta->output_type()->fields()[0].name, "_ROW_KIND");
  EXPECT_EQ(delta->output_type()->num_fields(), 5);
}

// Rows 0..n-1 of (id, name) or, with `qty`, (id, name, qty = id * 10), as one commit.
Status CommitRows(const Table& table, int64_t first, int64_t n, bool qty) {
  WriteBuilder builder = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, builder.NewWrite());
  ColumnBatch batch(write->input_type());
  for (int64_t id = first; id < first + n; ++id) {
    ValueList row{Value::Int64(id), Value::String("n" + std::to_string(id))};
    if (qty) row.push_back(Value::Int32(static_cast<int32_t>(id * 10)));
    SLUICE_RETURN_NOT_OK(batch.AppendRow(row));
  }
  SLUICE_RETURN_NOT_OK(write->Write(batch));
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessage> messages, write->PrepareCommit());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
  SLUICE_RETURN_NOT_OK(commit->Commit(std::move(messages)).status());
  return write->Close();
}

std::vector<std::string> SortedRows(const ReadBuilder& builder) {
  auto reader = test::ReaderOf(builder);
  EXPECT_OK(reader);
  if (!reader.ok()) return {};
  std::vector<std::string> rows = ReadRows(reader->get());
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(TableReadTest, FilesOfAnOlderSchemaReadBesideFilesReadAsStored) {
  test::TempDir dir;
  Catalog catalog = Catalog::Filesystem(dir.path() + "/warehouse");
  ASSERT_OK(catalog.CreateDatabase("db"));
  NewTableSpec spec;
  spec.columns = {DataField{0, "id", DataType::BigInt(), std::nullopt, std::nullopt},
                  DataField{0, "name", DataType::String(), std::nullopt, std::nullopt}};
  ASSERT_OK(catalog.CreateTable("db.t", spec));
  auto old_table = catalog.GetTable("db.t");
  ASSERT_OK(old_table);
  ASSERT_OK(CommitRows(*old_table, 0, 3, /*qty=*/false));
  auto table = catalog.AlterTable("db.t", {SchemaChange::AddColumn({"qty"}, DataType::Int())});
  ASSERT_OK(table);
  ASSERT_OK(CommitRows(*table, 3, 2, /*qty=*/true));

  const std::vector<std::string> all = {"0 \"n0\" null ", "1 \"n1\" null ", "2 \"n2\" null ",
                                        "3 \"n3\" 30 ", "4 \"n4\" 40 "};
  EXPECT_EQ(SortedRows(table->NewReadBuilder()), all);
  EXPECT_EQ(SortedRows(table->NewReadBuilder().WithOrdered(true).WithThreads(1)), all);
  EXPECT_EQ(SortedRows(table->NewReadBuilder().WithWhere("id >= 2")),
            (std::vector<std::string>{"2 \"n2\" null ", "3 \"n3\" 30 ", "4 \"n4\" 40 "}));
  EXPECT_EQ(SortedRows(table->NewReadBuilder().WithProjection({"qty", "id"})),
            (std::vector<std::string>{"30 3 ", "40 4 ", "null 0 ", "null 1 ", "null 2 "}));
  EXPECT_EQ(
      SortedRows(table->NewReadBuilder().WithProjection({"id", "name"})),
      (std::vector<std::string>{"0 \"n0\" ", "1 \"n1\" ", "2 \"n2\" ", "3 \"n3\" ", "4 \"n4\" "}));
}

}  // namespace
}  // namespace sluice
