#include "sluice/catalog/jdbc/placeholders.h"

namespace sluice {

std::string ReplacePlaceholders(std::string_view sql,
                                const std::function<std::string(size_t index)>& replacement,
                                size_t* count) {
  std::string out;
  out.reserve(sql.size() + 16);
  size_t next = 0;
  char quote = 0;
  for (char c : sql) {
    if (quote != 0) {
      if (c == quote) quote = 0;  // a doubled quote closes and reopens: the same text
      out.push_back(c);
    } else if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      out.push_back(c);
    } else if (c == '?') {
      out += replacement(next++);
    } else {
      out.push_back(c);
    }
  }
  *count = next;
  return out;
}

std::string NumberPlaceholders(std::string_view sql) {
  size_t count = 0;
  return ReplacePlaceholders(
      sql, [](size_t index) { return "$" + std::to_string(index + 1); }, &count);
}

}  // namespace sluice
