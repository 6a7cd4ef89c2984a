#include "sluice/row/bucket.h"

#include <string>

namespace sluice {

Result<int32_t> DefaultBucketOfKey(const ValueList& key, const DataType& key_type,
                                   int32_t num_buckets) {
  if (num_buckets <= 0) {
    return Status::InvalidArgument("bucket count must be positive, got " +
                                   std::to_string(num_buckets));
  }
  SLUICE_ASSIGN_OR_RETURN(std::string bytes, EncodeBinaryRow(key, key_type));
  SLUICE_ASSIGN_OR_RETURN(BinaryRowView row, BinaryRowView::Make(bytes, key_type.num_fields()));
  return DefaultBucket(row, num_buckets);
}

}  // namespace sluice
