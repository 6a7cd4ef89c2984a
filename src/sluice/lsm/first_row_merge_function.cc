#include "sluice/lsm/first_row_merge_function.h"

#include <utility>

namespace sluice {
namespace {

Status RejectRetraction() {
  return Status::InvalidArgument(
      "By default, First row merge engine can not accept DELETE/UPDATE_BEFORE records. You "
      "can config 'ignore-delete' to ignore the DELETE/UPDATE_BEFORE records.");
}

}  // namespace

Result<int64_t> FirstRowMergeFunction::PickRecord(const RowKind* kinds, int64_t n) const {
  int64_t first = -1;
  for (int64_t i = 0; i < n; ++i) {
    if (IsRetract(kinds[i])) {
      if (!ignore_delete_) return RejectRetraction();
    } else if (first < 0) {
      first = i;
    }
  }
  return first;
}

Status FirstRowMergeFunction::Add(const KeyValue& kv) {
  if (IsRetract(kv.kind)) return ignore_delete_ ? Status::OK() : RejectRetraction();
  if (kv.level > 0) contains_high_level_ = true;
  if (!first_) first_ = kv;
  return Status::OK();
}

Status FirstRowMergeFunction::Add(KeyValue&& kv) {
  if (IsRetract(kv.kind)) return ignore_delete_ ? Status::OK() : RejectRetraction();
  if (kv.level > 0) contains_high_level_ = true;
  if (!first_) first_ = std::move(kv);
  return Status::OK();
}

}  // namespace sluice
