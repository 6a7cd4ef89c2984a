// Power-loss test of a sync job's commit (issue #38), through the harness of
// table/power_loss_util.h: a restarted job's CdcTableSink buffers a record and commits it with
// the source offsets it consumed (the `sluice.cdc.offsets` snapshot property) on a
// FaultInjectionFileIO, the power failing after each of its mutating FileIO calls. The rows and
// the offsets land together or not at all (a restarted job resumes from offsets that match the
// rows), the table checks clean, and the commit run again completes.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/cdc/cdc_table_sink.h"
#include "sluice/cdc/table_sync_state.h"
#include "table/power_loss_util.h"

namespace sluice {
namespace {

constexpr char kWarehouse[] = "/wh";
constexpr char kTable[] = "/wh/db.db/events";

// Commits event `seq` to db.events through a fresh sink (a restarted job), as the job that has
// consumed split t-0 up to `next_offset`.
Status CommitEvent(const std::shared_ptr<FileIO>& io, int seq, int64_t next_offset) {
  auto catalog = std::make_shared<FilesystemCatalog>(io, kWarehouse);
  SyncJobOptions options;
  options.commit_user = "sync";
  CdcSinkContext context;
  context.options = &options;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<CdcTableSink> sink,
                          CdcTableSink::Open(catalog, "db.events", &context));
  const SourceOffsets consumed{{{"t-0", next_offset}}};
  SLUICE_RETURN_NOT_OK(sink->Add(
      std::make_shared<const CdcSchema>(),
      CdcRecord{RowKind::kInsert, {{"seq", std::to_string(seq)}, {"what", "e"}}}, consumed));
  SLUICE_RETURN_NOT_OK(sink->Commit(consumed));
  return sink->Close();
}

TEST(CdcTableSinkPowerLossTest, RowsAndSourceOffsetsLandTogether) {
  test::PowerLossCase c;
  c.build = [](const std::shared_ptr<FileIO>& io) -> Status {
    FilesystemCatalog catalog(io, kWarehouse);
    SLUICE_RETURN_NOT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {{0, "seq", DataType::Int(), {}, {}}, {1, "what", DataType::String(), {}, {}}};
    SLUICE_RETURN_NOT_OK(catalog.CreateTable("db.events", spec));
    return CommitEvent(io, 1, 10);
  };
  c.op = [](const std::shared_ptr<FileIO>& io) { return CommitEvent(io, 2, 20); };
  c.tables = {kTable};
  c.observe = [](const std::shared_ptr<FileIO>& io) -> std::string {
    auto table = FileStoreTable::Open(io, kTable);
    EXPECT_OK(table);
    if (!table.ok()) return table.status().ToString();
    auto state = LoadTableSyncState(**table, "sync");
    EXPECT_OK(state);
    if (!state.ok()) return state.status().ToString();
    std::string out = "identifier " + std::to_string(state->last_identifier.value_or(-1));
    for (const auto& [split, next] : state->offsets.next) {
      out += ", " + split + " at " + std::to_string(next);
    }
    return out;
  };
  c.min_cuts = 8;
  test::PowerLossAtEveryCall(c);
}

}  // namespace
}  // namespace sluice
