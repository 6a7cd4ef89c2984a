// Base64 (RFC 4648, the standard alphabet), the one home of the codec: binary values in JSON
// text (value_json.h, which declares Base64Encode for the public API), binary values of CDC
// records and Debezium's bytes.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

// With '=' padding.
std::string Base64Encode(std::string_view bytes);

// As Java's Base64.getDecoder(): padding accepted and not required. InvalidArgument naming the
// length or the position of a character outside the alphabet.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace sluice
