// Reading CDC messages as JSON with every number kept as written.
//
// Java reads messages with Jackson's USE_BIG_DECIMAL_FOR_FLOATS, so `12345.110` reaches the
// table as "12345.110" and a DECIMAL(38, 3) number keeps all its digits. `Json` holds floating
// numbers as long double, which has neither; so ParseCdcJson keeps each floating number (and each
// integer beyond 64 bits) as its source text, stored in the document as a binary value (which a
// JSON text never yields). Read values through the functions here, not `Json::is_number`.
//
// Thread safety: free functions on values.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sluice/base/json_fwd.h"
#include "sluice/result.h"

namespace sluice {

// Messages nested deeper are rejected (Corruption): the parsers and the value writer recurse.
inline constexpr int kMaxCdcJsonDepth = 64;

// Parses a whole message; Corruption naming the byte offset of a syntax error.
Result<Json> ParseCdcJson(std::string_view text);

// Whether `value` is a number: an integer, or a floating number kept as text.
bool IsCdcJsonNumber(const Json& value);

// "object", "array", "string", "number", "boolean", "null".
std::string_view CdcJsonTypeName(const Json& value);

// A value as the text of a CDC record (Java's CdcRecord values): nullopt for null, a string's
// characters, "true"/"false", a number as written, and an object or array as compact JSON.
std::optional<std::string> CdcJsonValueText(const Json& value);

// Compact JSON text of `value`, numbers as written.
std::string CdcJsonToString(const Json& value);

}  // namespace sluice
