// ReportScan: the `scan` metric group of a table (Java operation.metrics.ScanMetrics with
// ScanStats; names in docs/metrics.md), reported once per plan by PlanScan when the plan's
// ScanOptions carry a registry.
//
// Thread safety: as MetricRegistryImpl.
#pragma once

#include <cstdint>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

// `plan` of `table` took `duration_ms`.
void ReportScan(MetricRegistryImpl* registry, const FileStoreTable& table, const ScanPlan& plan,
                int64_t duration_ms);

}  // namespace sluice
