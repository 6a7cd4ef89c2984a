#include "sluice/stream_table_scan.h"

#include "sluice/api/api_access.h"
#include "sluice/table/source/data_table_stream_scan.h"

namespace sluice {

StreamTableScan::StreamTableScan(std::string name, std::unique_ptr<DataTableStreamScan> scan)
    : name_(std::move(name)), scan_(std::move(scan)) {}
StreamTableScan::StreamTableScan(StreamTableScan&&) noexcept = default;
StreamTableScan& StreamTableScan::operator=(StreamTableScan&&) noexcept = default;
StreamTableScan::~StreamTableScan() = default;

Result<StreamScanPlan> StreamTableScan::Plan() {
  Result<StreamPlan> plan = scan_->Plan();
  if (!plan.ok()) return plan.status().WithContext(name_);
  StreamScanPlan out;
  out.snapshot_id = plan->snapshot_id;
  out.end_of_scan = plan->end_of_scan;
  out.splits.reserve(plan->splits.size());
  for (DataSplit& split : plan->splits)
    out.splits.push_back(ApiAccess::MakeSplit(std::move(split)));
  return out;
}

Result<bool> StreamTableScan::WaitForNextSnapshot(std::chrono::milliseconds timeout) {
  return scan_->WaitForNextSnapshot(timeout);
}

std::optional<int64_t> StreamTableScan::Checkpoint() const { return scan_->Checkpoint(); }

void StreamTableScan::Restore(std::optional<int64_t> next_snapshot_id) {
  scan_->Restore(next_snapshot_id);
}

Status StreamTableScan::NotifyCheckpointComplete(std::optional<int64_t> next_snapshot) const {
  return scan_->NotifyCheckpointComplete(next_snapshot);
}

}  // namespace sluice
