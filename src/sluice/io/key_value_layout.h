// The layout of primary-key data files (Java KeyValue.schema with SpecialFields), shared by the
// writer (table/sink) and the reader (table/source): `_KEY_<name>` columns of the trimmed
// primary key (field id kKeyFieldIdStart + the table field's id), `_SEQUENCE_NUMBER BIGINT NOT
// NULL`, `_VALUE_KIND TINYINT NOT NULL`, then the table row.
//
// Thread safety: constants only.
#pragma once

#include <cstdint>

namespace sluice {

inline constexpr int32_t kKeyFieldIdStart = 1073741823;  // SpecialFields.KEY_FIELD_ID_START
inline constexpr int32_t kSequenceNumberFieldId = 2147483646;
inline constexpr int32_t kValueKindFieldId = 2147483645;
inline constexpr const char* kKeyFieldNamePrefix = "_KEY_";
inline constexpr const char* kSequenceNumberFieldName = "_SEQUENCE_NUMBER";
inline constexpr const char* kValueKindFieldName = "_VALUE_KIND";

}  // namespace sluice
