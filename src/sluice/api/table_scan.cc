#include "sluice/table_scan.h"

#include "sluice/api/api_access.h"
#include "sluice/api/read_context.h"

namespace sluice {

Result<TableScanPlan> TableScan::Plan() const {
  auto plan = PlanScan(*context_->table, context_->scan);
  if (!plan.ok()) return plan.status().WithContext(context_->name);
  TableScanPlan out;
  out.snapshot_id = plan->snapshot_id;
  out.splits.reserve(plan->splits.size());
  for (DataSplit& split : plan->splits)
    out.splits.push_back(ApiAccess::MakeSplit(std::move(split)));
  return out;
}

}  // namespace sluice
