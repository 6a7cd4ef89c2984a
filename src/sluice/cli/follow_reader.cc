#include "sluice/cli/follow_reader.h"

#include <csignal>
#include <cstdio>

#include "sluice/cli/row_printer.h"

namespace sluice::cli {

namespace {

// How long one wait for a snapshot may block before the stop flag is looked at again; a
// signal also ends the wait at once (poll returns EINTR).
constexpr std::chrono::milliseconds kStopCheckInterval{200};

volatile std::sig_atomic_t g_stop = 0;

extern "C" void OnStopSignal(int) { g_stop = 1; }

// SIGINT / SIGTERM set the stop flag; no SA_RESTART, so a blocked wait returns.
void InstallStopHandlers() {
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

Status FollowTable(ReadBuilder read, const std::string& format, std::optional<int64_t> limit) {
  InstallStopHandlers();
  read.WithMode(ScanMode::kDelta);
  SLUICE_ASSIGN_OR_RETURN(StreamTableScan scan, read.NewStreamScan());
  SLUICE_ASSIGN_OR_RETURN(TableRead table_read, read.NewRead());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RowPrinter> printer,
                          RowPrinter::Make(format, *table_read.output_type(), stdout));
  int64_t printed = 0;
  std::optional<int64_t> recorded;  // the progress last recorded
  ColumnBatch batch(table_read.output_type());
  while (g_stop == 0 && (!limit || printed < *limit)) {
    SLUICE_ASSIGN_OR_RETURN(StreamScanPlan plan, scan.Plan());
    if (plan.end_of_scan) break;
    if (!plan.snapshot_id) {
      // Snapshots skipped as empty (compactions) were handed on too.
      if (scan.Checkpoint() != recorded) {
        recorded = scan.Checkpoint();
        SLUICE_RETURN_NOT_OK(scan.NotifyCheckpointComplete(recorded));
      }
      SLUICE_RETURN_NOT_OK(scan.WaitForNextSnapshot(kStopCheckInterval).status());
      continue;
    }
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader,
                            table_read.CreateReader(std::move(plan.splits)));
    // A stop request waits for the snapshot being handed on, so a clean stop records it; only
    // the limit cuts a snapshot short, and then it stays unrecorded.
    bool whole_snapshot = true;
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      if (limit && printed >= *limit) {
        whole_snapshot = batch.num_rows() == 0;
        if (!whole_snapshot) break;
        continue;
      }
      int64_t rows = batch.num_rows();
      if (limit) rows = std::min(rows, *limit - printed);
      printer->PrintFirst(batch, rows);
      printed += rows;
      if (rows < batch.num_rows()) {
        whole_snapshot = false;
        break;
      }
    }
    // Handed on once flushed.
    printer->Flush();
    if (whole_snapshot) {
      recorded = scan.Checkpoint();
      SLUICE_RETURN_NOT_OK(scan.NotifyCheckpointComplete(recorded));
    }
  }
  printer->Finish();
  return Status::OK();
}

}  // namespace sluice::cli
