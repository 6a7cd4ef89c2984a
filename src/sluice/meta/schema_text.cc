#include "sluice/meta/schema_text.h"

#include "sluice/base/string_util.h"

namespace sluice {

std::vector<std::string> JavaSplit(std::string_view s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    parts.emplace_back(s.substr(start, at == std::string_view::npos ? s.npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

std::string TrimSpacesAndTabs(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return std::string(s);
}

std::string JavaJoin(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

std::string JavaListString(const std::vector<std::string>& list) {
  return "[" + JavaJoin(list, ", ") + "]";
}

std::vector<std::string> KeyListOption(std::string_view value) {
  std::vector<std::string> keys;
  for (const std::string& part : JavaSplit(value)) {
    std::string t = TrimSpacesAndTabs(part);
    if (!t.empty()) keys.push_back(std::move(t));
  }
  return keys;
}

bool BooleanOptionOr(const std::string* value, bool fallback) {
  return value == nullptr ? fallback : AsciiToLower(*value) == "true";
}

}  // namespace sluice
