#include "sluice/predicate/like_pattern.h"

namespace sluice {

namespace {

// Index of the next UTF-8 character after position i (at least one byte, so invalid UTF-8
// still advances).
size_t NextCharacter(std::string_view s, size_t i) {
  ++i;
  while (i < s.size() && (static_cast<uint8_t>(s[i]) & 0xC0) == 0x80) ++i;
  return i;
}

}  // namespace

LikePattern LikePattern::Compile(std::string_view pattern) {
  LikePattern p;
  bool in_prefix = true;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    int16_t element;
    if (c == '\\' && i + 1 < pattern.size()) {
      element = static_cast<uint8_t>(pattern[++i]);
    } else if (c == '%') {
      element = kAnySequence;
    } else if (c == '_') {
      element = kAnyCharacter;
    } else {
      element = static_cast<uint8_t>(c);
    }
    if (element < 0) {
      ++p.wildcard_count_;
      if (element == kAnyCharacter) p.only_trailing_percent_ = false;
      in_prefix = false;
    } else {
      if (in_prefix) p.fixed_prefix_.push_back(static_cast<char>(element));
      if (!in_prefix) p.only_trailing_percent_ = false;
    }
    p.elements_.push_back(element);
  }
  return p;
}

bool LikePattern::Matches(std::string_view value) const {
  // Greedy matching that backtracks only to the most recent '%': linear for typical patterns,
  // O(value * pattern) at worst, never exponential.
  const size_t npos = static_cast<size_t>(-1);
  size_t v = 0;
  size_t e = 0;
  size_t star = npos;
  size_t star_value = 0;
  const size_t n = elements_.size();
  while (v < value.size()) {
    if (e < n && elements_[e] == kAnyCharacter) {
      v = NextCharacter(value, v);
      ++e;
    } else if (e < n && elements_[e] >= 0 && elements_[e] == static_cast<uint8_t>(value[v])) {
      ++v;
      ++e;
    } else if (e < n && elements_[e] == kAnySequence) {
      star = e++;
      star_value = v;
    } else if (star != npos) {
      e = star + 1;
      star_value = NextCharacter(value, star_value);
      v = star_value;
    } else {
      return false;
    }
  }
  while (e < n && elements_[e] == kAnySequence) ++e;
  return e == n;
}

std::string LikePattern::Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '%' || c == '_' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

}  // namespace sluice
