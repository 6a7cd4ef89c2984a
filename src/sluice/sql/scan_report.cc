#include "sluice/sql/scan_report.h"

namespace sluice::sql {

std::string ScanReport::ToString() const {
  std::string out = table + ":";
  out += snapshot_id ? " snapshot " + std::to_string(*snapshot_id) : " no snapshot";
  if (!filter.empty()) out += ", filter " + filter;
  out += ", " + std::to_string(splits) + " splits, ";
  if (files_unfiltered) {
    out += std::to_string(files) + " of " + std::to_string(*files_unfiltered) + " files (" +
           std::to_string(*files_unfiltered - files) + " pruned)";
  } else {
    out += std::to_string(files) + " files";
  }
  return out;
}

}  // namespace sluice::sql
