// Helpers of the public-API tests: plan a read in one call, read every split of a plan.
#pragma once

#include <memory>
#include <utility>

#include "sluice/read_builder.h"

namespace sluice::test {

// NewScan + Plan.
inline Result<TableScanPlan> PlanOf(const ReadBuilder& read) {
  SLUICE_ASSIGN_OR_RETURN(TableScan scan, read.NewScan());
  return scan.Plan();
}

// NewScan + Plan + NewRead + CreateReader over every split.
inline Result<std::unique_ptr<BatchReader>> ReaderOf(const ReadBuilder& read) {
  SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, PlanOf(read));
  SLUICE_ASSIGN_OR_RETURN(TableRead table_read, read.NewRead());
  return table_read.CreateReader(std::move(plan.splits));
}

}  // namespace sluice::test
