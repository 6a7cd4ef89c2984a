#include "sluice/lsm/deduplicate_merge_function.h"

#include <utility>

namespace sluice {

Status DeduplicateMergeFunction::Add(const KeyValue& kv) {
  if (ignore_delete_ && IsRetract(kv.kind)) return Status::OK();
  latest_ = kv;
  return Status::OK();
}

Status DeduplicateMergeFunction::Add(KeyValue&& kv) {
  if (ignore_delete_ && IsRetract(kv.kind)) return Status::OK();
  latest_ = std::move(kv);
  return Status::OK();
}

}  // namespace sluice
