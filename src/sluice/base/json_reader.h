// Reading JSON documents (schema, snapshot, tag files): parsing with nlohmann-json, and typed
// accessors whose errors name the offending field.
//
// `Json` keeps object members in file order (schema options must be written back in the order
// they were read), integers as int64/uint64 (ids, offsets and counts keep their full
// precision), and other numbers as long double (enough digits for a Java Duration such as
// `86400.000000000`).
//
// Errors are Corruption statuses whose message names the field, e.g.
// "field 'fields[2].type': expected string or object, got number"; the caller adds the file
// name with Status::WithContext.
//
// Thread safety: free functions on values; safe to call concurrently on distinct values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/base/json_fwd.h"
#include "sluice/result.h"

namespace sluice {

// Parses a whole document; a syntax error is a Corruption naming the byte offset.
Result<Json> ParseJson(std::string_view text);

// "object", "array", "string", "number", "boolean", "null".
std::string_view JsonTypeName(const Json& value);

// "<parent>.<key>", or just `key` when `parent` is empty.
std::string JsonFieldPath(std::string_view parent, std::string_view key);
// "<parent>[<index>]".
std::string JsonIndexPath(std::string_view parent, size_t index);

// The member `key` of `object`, or nullptr when absent. REQUIRES: object.is_object().
const Json* FindMember(const Json& object, std::string_view key);
// The member `key` of `object`; Corruption "missing field '<field>'" when absent.
// REQUIRES: object.is_object().
Result<const Json*> GetMember(const Json& object, std::string_view key, std::string_view field);

// Typed views of a value; a value of another JSON type (including null) or out of range is a
// Corruption naming `field`.
Status ExpectObject(const Json& value, std::string_view field);
Status ExpectArray(const Json& value, std::string_view field);
Result<int64_t> JsonToInt64(const Json& value, std::string_view field);
Result<int32_t> JsonToInt32(const Json& value, std::string_view field);
Result<std::string> JsonToString(const Json& value, std::string_view field);

}  // namespace sluice
