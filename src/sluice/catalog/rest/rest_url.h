// The URL text of Paimon's REST catalog API: path segments and query values are encoded as Java's
// RESTUtil.encodeString does (java.net.URLEncoder, UTF-8: letters, digits and ".-*_" stay, a
// space becomes '+', every other byte %XX in upper case) and decoded as its decodeString does
// ('+' is a space). A name holding '/' therefore travels as "%2F" inside one segment.
//
// Thread safety: pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sluice::rest {

// Java URLEncoder.encode(text, UTF-8).
std::string EncodeUrlComponent(std::string_view text);

// Java URLDecoder.decode(text, UTF-8); nullopt for a '%' not followed by two hex digits.
std::optional<std::string> DecodeUrlComponent(std::string_view text);

// "a=1&b=x%20y" -> {a: 1, b: x y}; nullopt when a key or value does not decode. A repeated key
// keeps its first value.
std::optional<std::map<std::string, std::string>> ParseQuery(std::string_view query);

}  // namespace sluice::rest
