#include "sluice/table/source/split_read_util.h"

#include <algorithm>
#include <string>

namespace sluice {

Status CheckSplitFiles(const DataSplit& split, const SplitReadOptions& options) {
  if (split.data_file_paths.size() != split.data_files.size()) {
    return Status::InvalidArgument("split has " + std::to_string(split.data_files.size()) +
                                   " data files but " +
                                   std::to_string(split.data_file_paths.size()) + " paths");
  }
  if (!options.deleted_positions.empty() &&
      options.deleted_positions.size() != split.data_files.size()) {
    return Status::InvalidArgument(
        "deleted positions given for " + std::to_string(options.deleted_positions.size()) +
        " files of a split of " + std::to_string(split.data_files.size()));
  }
  return Status::OK();
}

Status CheckBatchSize(const SplitReadOptions& options) {
  if (options.batch_size <= 0) {
    return Status::InvalidArgument("batch size " + std::to_string(options.batch_size) +
                                   " is not positive");
  }
  return Status::OK();
}

Result<std::shared_ptr<const TimeZone>> LoadSessionZone(const SplitReadOptions& options) {
  if (options.session_time_zone.empty()) return std::shared_ptr<const TimeZone>();
  return TimeZone::Load(options.session_time_zone);
}

std::vector<int64_t> LivePositions(int64_t row_count, const std::vector<int64_t>& deleted) {
  std::vector<int64_t> live;
  live.reserve(static_cast<size_t>(std::max<int64_t>(0, row_count)));
  auto it = deleted.begin();
  for (int64_t row = 0; row < row_count; ++row) {
    while (it != deleted.end() && *it < row) ++it;
    if (it != deleted.end() && *it == row) continue;
    live.push_back(row);
  }
  return live;
}

Status MarkFilterFields(const PredicatePtr& filter, std::vector<bool>* needed) {
  if (filter == nullptr) return Status::OK();
  const int num_fields = static_cast<int>(needed->size());
  for (int index : filter->ReferencedFields()) {
    if (index < 0 || index >= num_fields) {
      return Status::InvalidArgument("filter references field " + std::to_string(index) +
                                     " of a row of " + std::to_string(num_fields));
    }
    (*needed)[static_cast<size_t>(index)] = true;
  }
  return Status::OK();
}

}  // namespace sluice
