// Small string helpers shared by every layer.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace sluice {

// `s` with ASCII 'A'..'Z' lower-cased and every other byte kept (Java's toLowerCase for the
// ASCII option names, formats and codecs it is used on).
std::string AsciiToLower(std::string_view s);

// Whether `a` and `b` are equal ignoring ASCII case.
bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b);

// Whether `s` is empty or only whitespace as Java's Character.isWhitespace sees ASCII (Java
// StringUtils.isNullOrWhitespaceOnly, the test for blank table, branch and tag names).
bool IsJavaBlank(std::string_view s);

// `s` without its leading and trailing characters <= ' ' (Java String.trim).
std::string_view JavaTrim(std::string_view s);

}  // namespace sluice
