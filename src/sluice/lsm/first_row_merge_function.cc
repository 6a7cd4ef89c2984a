#include "sluice/lsm/first_row_merge_function.h"

namespace sluice {

Status FirstRowMergeFunction::Add(const KeyValue& kv) {
  if (IsRetract(kv.kind)) {
    if (ignore_delete_) return Status::OK();
    return Status::InvalidArgument(
        "By default, First row merge engine can not accept DELETE/UPDATE_BEFORE records. You "
        "can config 'ignore-delete' to ignore the DELETE/UPDATE_BEFORE records.");
  }
  if (!first_) first_ = kv;
  if (kv.level > 0) contains_high_level_ = true;
  return Status::OK();
}

}  // namespace sluice
