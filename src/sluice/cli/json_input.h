// JSON of `sluice write --format jsonl` input: nlohmann-json keeping object members in order
// and numbers at full precision (int64 / uint64 / long double), so BIGINT and DECIMAL values
// arrive exact. Parse errors are statuses, never exceptions.
//
// Thread safety: free functions on values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/result.h"

namespace sluice::cli {

using Json = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool,
                                  std::int64_t, std::uint64_t, long double>;

// A whole document; a syntax error is an InvalidArgument naming the byte offset.
Result<Json> ParseJson(std::string_view text);

// "object", "array", "string", "number", "boolean", "null".
std::string_view JsonTypeName(const Json& value);

// The member `key` of `object`, or nullptr. REQUIRES: object.is_object().
const Json* FindMember(const Json& object, std::string_view key);

}  // namespace sluice::cli
