#include "sluice/lsm/aggregate/roaring_bitmap.h"

#include <roaring/roaring.h>

#include <string>

namespace sluice {
namespace {

// The bitmap `bytes` hold, or null when they are not exactly one portable serialization.
roaring_bitmap_t* Deserialize(const std::string& bytes) {
  if (roaring_bitmap_portable_deserialize_size(bytes.data(), bytes.size()) != bytes.size()) {
    return nullptr;
  }
  return roaring_bitmap_portable_deserialize_safe(bytes.data(), bytes.size());
}

}  // namespace

Result<Value> FieldRoaringBitmap32Agg::Agg(const Value& acc, const Value& in) {
  if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
  roaring_bitmap_t* a = Deserialize(acc.bytes());
  roaring_bitmap_t* b = a == nullptr ? nullptr : Deserialize(in.bytes());
  if (a == nullptr || b == nullptr) {
    // This CRoaring version does not accept a null in roaring_bitmap_free.
    if (a != nullptr) roaring_bitmap_free(a);
    return Status::InvalidArgument("rbm32: a value is not a serialized 32-bit roaring bitmap");
  }
  roaring_bitmap_or_inplace(a, b);
  roaring_bitmap_free(b);
  // Java runs runOptimize() before serializing.
  roaring_bitmap_run_optimize(a);
  std::string out(roaring_bitmap_portable_size_in_bytes(a), '\0');
  roaring_bitmap_portable_serialize(a, out.data());
  roaring_bitmap_free(a);
  return Value::Binary(std::move(out));
}

}  // namespace sluice
