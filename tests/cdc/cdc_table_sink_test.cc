#include "sluice/cdc/cdc_table_sink.h"
#include "sluice/catalog/filesystem_catalog.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sluice/cdc/table_sync_state.h"
#include "test_util.h"

namespace sluice {
namespace {

// An append table `db.events` (seq INT, what STRING) in a fresh warehouse.
std::shared_ptr<FilesystemCatalog> EventsCatalog(const std::string& warehouse) {
  auto catalog = std::make_shared<FilesystemCatalog>(LocalFileIO(), warehouse);
  EXPECT_OK(catalog->CreateDatabase("db", /*ignore_if_exists=*/false));
  NewTableSpec spec;
  spec.columns = {{0, "seq", DataType::Int(), {}, {}}, {1, "what", DataType::String(), {}, {}}};
  EXPECT_OK(catalog->CreateTable("db.events", spec, /*ignore_if_exists=*/false));
  return catalog;
}

CdcRecord Event(int seq) {
  return CdcRecord{RowKind::kInsert, {{"seq", std::to_string(seq)}, {"what", "e"}}};
}

// A record schema without columns: the sink checks nothing against the table.
std::shared_ptr<const CdcSchema> NoColumns() { return std::make_shared<const CdcSchema>(); }

SourceOffsets Offsets(std::map<std::string, int64_t> next) {
  return SourceOffsets{std::move(next)};
}

// A run that resumes behind a table's offsets (it was killed after this table committed and
// before the job stored its progress) skips what the table holds; its commits must not move the
// table's offsets back, or the run after it would apply the skipped messages again.
TEST(CdcTableSinkTest, CommitsNeverMoveTheTablesOffsetsBack) {
  test::TempDir warehouse;
  std::shared_ptr<FilesystemCatalog> catalog = EventsCatalog(warehouse.path());
  SyncJobOptions options;
  options.commit_user = "sync";
  CdcSinkContext context;
  context.options = &options;
  {
    ASSERT_OK_AND_ASSIGN(auto sink, CdcTableSink::Open(catalog, "db.events", &context));
    ASSERT_OK(sink->Add(NoColumns(), Event(1), Offsets({{"t-0", 0}, {"t-1", 0}})));
    ASSERT_OK(sink->Commit(Offsets({{"t-0", 10}, {"t-1", 0}})));
  }
  // The next run resumed at t-0 offset 5: it skips t-0 below 10 and reads t-1.
  ASSERT_OK_AND_ASSIGN(auto sink, CdcTableSink::Open(catalog, "db.events", &context));
  EXPECT_TRUE(sink->Holds("t-0", 7));
  EXPECT_FALSE(sink->Holds("t-1", 0));
  ASSERT_OK(sink->Add(NoColumns(), Event(2), Offsets({{"t-0", 7}, {"t-1", 0}})));
  ASSERT_OK(sink->Commit(Offsets({{"t-0", 7}, {"t-1", 3}})));
  EXPECT_EQ(sink->committed().next, Offsets({{"t-0", 10}, {"t-1", 3}}).next);

  ASSERT_OK_AND_ASSIGN(std::shared_ptr<FileStoreTable> table, catalog->LoadTable("db.events"));
  ASSERT_OK_AND_ASSIGN(TableSyncState state, LoadTableSyncState(*table, "sync"));
  EXPECT_EQ(state.offsets.next, Offsets({{"t-0", 10}, {"t-1", 3}}).next);
  EXPECT_EQ(state.last_identifier, 2);
}

// A fact (SourceOffsets::kFactPrefix) is committed with the table it was given to and kept by
// every later commit of it; a sink that drops what it buffered drops the fact too.
TEST(CdcTableSinkTest, AFactCommitsWithItsTableAndStays) {
  test::TempDir warehouse;
  std::shared_ptr<FilesystemCatalog> catalog = EventsCatalog(warehouse.path());
  SyncJobOptions options;
  options.commit_user = "sync";
  CdcSinkContext context;
  context.options = &options;
  const std::string fact = std::string(SourceOffsets::kFactPrefix) + "copied:src.events";
  ASSERT_TRUE(SourceOffsets::IsFact(fact));
  ASSERT_FALSE(SourceOffsets::IsFact("binlog"));
  ASSERT_OK_AND_ASSIGN(auto sink, CdcTableSink::Open(catalog, "db.events", &context));
  ASSERT_OK(sink->Add(NoColumns(), Event(1), Offsets({{"binlog", 4}})));
  sink->AddFact(fact, 42);
  ASSERT_OK(sink->Close());
  EXPECT_FALSE(sink->has_pending());
  EXPECT_EQ(sink->committed().Next(fact), -1);

  ASSERT_OK(sink->Add(NoColumns(), Event(1), Offsets({{"binlog", 4}})));
  sink->AddFact(fact, 42);
  ASSERT_OK(sink->Commit(Offsets({{"binlog", 4}})));
  ASSERT_OK(sink->Add(NoColumns(), Event(2), Offsets({{"binlog", 9}})));
  ASSERT_OK(sink->Commit(Offsets({{"binlog", 9}})));
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<FileStoreTable> table, catalog->LoadTable("db.events"));
  ASSERT_OK_AND_ASSIGN(TableSyncState state, LoadTableSyncState(*table, "sync"));
  EXPECT_EQ(state.offsets.next, Offsets({{"binlog", 9}, {fact, 42}}).next);
}

}  // namespace
}  // namespace sluice
