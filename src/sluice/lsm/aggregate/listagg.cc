#include "sluice/lsm/aggregate/listagg.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

namespace sluice {
namespace {

// Java StringUtils.isBlank: empty or only whitespace.
bool IsBlank(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// commons-lang splitByWholeSeparatorPreserveAllTokens for a non-empty separator.
std::vector<std::string_view> SplitWhole(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> out;
  if (s.empty()) return out;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(s.substr(start));
      break;
    }
    out.push_back(s.substr(start, pos - start));
    start = pos + sep.size();
  }
  return out;
}

}  // namespace

Result<Value> FieldListaggAgg::Agg(const Value& acc, const Value& in) {
  if (in.is_null() || IsBlank(in.bytes())) return acc;
  if (acc.is_null() || IsBlank(acc.bytes())) return in;
  if (!distinct_ || delimiter_.empty()) {
    return Value::String(acc.bytes() + delimiter_ + in.bytes());
  }
  std::vector<std::string_view> seen = SplitWhole(acc.bytes(), delimiter_);
  std::string out = acc.bytes();
  for (std::string_view token : SplitWhole(in.bytes(), delimiter_)) {
    if (IsBlank(token) || std::find(seen.begin(), seen.end(), token) != seen.end()) continue;
    seen.push_back(token);
    out += delimiter_;
    out += token;
  }
  return Value::String(std::move(out));
}

}  // namespace sluice
