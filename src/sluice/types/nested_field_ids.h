// Paimon's field ids of the parts of nested types that have no DataField of their own: array
// elements, map keys and map values (Java SpecialFields.getArrayElementFieldId /
// getMapKeyFieldId / getMapValueFieldId, format spec 2.5), with Java's wrapping int arithmetic.
// Parquet schemas and Arrow schemas carry them.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>

namespace sluice {

// SpecialFields.STRUCTURED_TYPE_FIELD_ID_BASE and STRUCTURED_TYPE_FIELD_DEPTH_LIMIT.
inline constexpr uint32_t kStructuredTypeFieldIdBase = 2147483647u / 4u;
inline constexpr uint32_t kStructuredTypeFieldDepthLimit = 1u << 10;

// `depth`: the nesting level of the element, key or value within its field (1 for the top).
inline int32_t ArrayElementFieldId(int32_t array_field_id, int depth) {
  return static_cast<int32_t>(kStructuredTypeFieldIdBase +
                              static_cast<uint32_t>(array_field_id) *
                                  kStructuredTypeFieldDepthLimit +
                              static_cast<uint32_t>(depth));
}
inline int32_t MapKeyFieldId(int32_t map_field_id, int depth) {
  return static_cast<int32_t>(kStructuredTypeFieldIdBase -
                              static_cast<uint32_t>(map_field_id) * kStructuredTypeFieldDepthLimit -
                              static_cast<uint32_t>(depth));
}
inline int32_t MapValueFieldId(int32_t map_field_id, int depth) {
  return ArrayElementFieldId(map_field_id, depth);
}

}  // namespace sluice
