#include "sluice/secret_mask.h"

#include <algorithm>
#include <array>

#include "sluice/base/string_util.h"

namespace sluice {

namespace {

bool IsKeyChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_';
}

bool EndsUnquotedValue(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ';' || c == '&' ||
         c == ']' || c == '}' || c == ')';
}

bool IsBareSecretWord(std::string_view key) {
  for (std::string_view word : {"password", "passwd", "secret", "token"}) {
    if (EqualsIgnoreAsciiCase(key, word)) return true;
  }
  return false;
}

}  // namespace

bool IsSecretOptionKey(std::string_view key) {
  static constexpr std::array<std::string_view, 14> kMarks = {
      "secret",      "password",    "passwd",      "token",       "credential",
      "api-key",     "apikey",      "api_key",     "private-key", "private_key",
      "jaas.config", "auth-params", "service-key", "basic-auth"};
  const std::string lower = AsciiToLower(key);
  for (std::string_view mark : kMarks) {
    if (lower.find(mark) != std::string::npos) return true;
  }
  return false;
}

std::string MaskedOptionValue(std::string_view key, std::string_view value) {
  return std::string(IsSecretOptionKey(key) ? kMaskedSecret : value);
}

std::map<std::string, std::string> MaskSecretOptions(std::map<std::string, std::string> options) {
  for (auto& [key, value] : options) {
    if (IsSecretOptionKey(key)) value = kMaskedSecret;
  }
  return options;
}

std::string MaskSecrets(std::string_view text) {
  std::string out;
  size_t copied = 0;  // text[0, copied) is in `out`
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=' && text[i] != ':') continue;
    // The key before the separator, perhaps quoted ("key": value) and followed by spaces.
    size_t key_end = i;
    while (key_end > copied && text[key_end - 1] == ' ') --key_end;
    const bool quoted_key =
        key_end > copied && (text[key_end - 1] == '"' || text[key_end - 1] == '\'');
    if (quoted_key) --key_end;
    size_t key_begin = key_end;
    while (key_begin > copied && IsKeyChar(text[key_begin - 1])) --key_begin;
    // 'key=value' quoted as a whole: the value ends at the closing quote.
    const char enclosing = !quoted_key && key_begin > copied &&
                                   (text[key_begin - 1] == '"' || text[key_begin - 1] == '\'')
                               ? text[key_begin - 1]
                               : '\0';
    const std::string_view key = text.substr(key_begin, key_end - key_begin);
    if (key.empty() || !IsSecretOptionKey(key)) continue;
    // Prose has "word: ..." too ("no credentials: set ..."): before ':' only what reads as an
    // option name is one, a quoted key, a dotted / dashed name or a bare secret word.
    if (text[i] == ':' && !quoted_key && key.find_first_of(".-_") == std::string_view::npos &&
        !IsBareSecretWord(key)) {
      continue;
    }
    size_t value_begin = i + 1;
    while (value_begin < text.size() && text[value_begin] == ' ') ++value_begin;
    size_t value_end = value_begin;
    if (value_begin < text.size() && (text[value_begin] == '"' || text[value_begin] == '\'')) {
      const char quote = text[value_begin++];
      value_end = value_begin;
      while (value_end < text.size() && text[value_end] != quote) {
        value_end += text[value_end] == '\\' && value_end + 1 < text.size() ? 2 : 1;
      }
      value_end = std::min(value_end, text.size());
    } else {
      while (value_end < text.size() && !EndsUnquotedValue(text[value_end]) &&
             text[value_end] != enclosing) {
        ++value_end;
      }
    }
    if (value_end == value_begin) continue;
    out.append(text.substr(copied, value_begin - copied));
    out.append(kMaskedSecret);
    copied = value_end;
    i = value_end > 0 ? value_end - 1 : 0;
  }
  out.append(text.substr(copied));
  return out;
}

}  // namespace sluice
