// Helpers of the public-API tests: plan a read in one call, read every split of a plan, read
// every row.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sluice/read_builder.h"
#include "sluice/value_json.h"

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

// Every row of the read as value_json text, sorted.
inline Result<std::vector<std::string>> SortedJsonRows(const ReadBuilder& read) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, ReaderOf(read));
  std::vector<std::string> rows;
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      rows.push_back(ValueToJson(batch.GetRow(r), *batch.schema()));
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

}  // namespace sluice::test
