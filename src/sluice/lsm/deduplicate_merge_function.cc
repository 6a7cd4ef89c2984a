#include "sluice/lsm/deduplicate_merge_function.h"

namespace sluice {

Status DeduplicateMergeFunction::Add(const KeyValue& kv) {
  if (ignore_delete_ && IsRetract(kv.kind)) return Status::OK();
  latest_ = kv;
  return Status::OK();
}

}  // namespace sluice
