#include "sluice/cdc/format/plain_json.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "sluice/cdc/format/cdc_json.h"

namespace sluice {

namespace {

// Longer numbers are left to the full parser.
constexpr size_t kMaxPlainNumber = 64;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The characters a plain string holds: printable ASCII but the quote and the backslash.
constexpr auto kPlainChar = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x7f; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();

// The first byte from `p` on that a plain string does not hold (or `end`).
const char* SkipPlainChars(const char* p, const char* end) {
#if defined(__SSE2__)
  // Sixteen bytes at a time: as signed bytes, those below 0x20 are the control characters and
  // every byte from 0x80 on; then the quote, the backslash and DEL.
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i del = _mm_set1_epi8(0x7f);
  while (end - p >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i stop =
        _mm_or_si128(_mm_or_si128(_mm_cmplt_epi8(bytes, space), _mm_cmpeq_epi8(bytes, quote)),
                     _mm_or_si128(_mm_cmpeq_epi8(bytes, backslash), _mm_cmpeq_epi8(bytes, del)));
    const int mask = _mm_movemask_epi8(stop);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end && kPlainChar[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

}  // namespace

bool PlainJson::Scan(std::string_view text) {
  nodes_.clear();
  p_ = text.data();
  end_ = text.data() + text.size();
  if (!Value(0)) return false;
  SkipSpace();
  return p_ == end_;
}

bool PlainJson::Value(int depth) {
  SkipSpace();
  if (p_ == end_) return false;
  switch (*p_) {
    case '"':
      return String();
    case 'n':
      return Literal("null", Kind::kNull);
    case 't':
      return Literal("true", Kind::kTrue);
    case 'f':
      return Literal("false", Kind::kFalse);
    case '{':
    case '[': {
      if (depth >= kMaxCdcJsonDepth) return false;
      const bool object = *p_ == '{';
      const char close = object ? '}' : ']';
      const size_t index = nodes_.size();
      nodes_.push_back(Node{object ? Kind::kObject : Kind::kArray, {}, 0});
      ++p_;
      SkipSpace();
      if (p_ < end_ && *p_ == close) {
        ++p_;
      } else {
        while (true) {
          if (object) {
            SkipSpace();
            if (p_ == end_ || *p_ != '"' || !String()) return false;
            SkipSpace();
            if (p_ == end_ || *p_ != ':') return false;
            ++p_;
          }
          if (!Value(depth + 1)) return false;
          SkipSpace();
          if (p_ == end_) return false;
          if (*p_ == ',') {
            ++p_;
            continue;
          }
          if (*p_ != close) return false;
          ++p_;
          break;
        }
      }
      nodes_[index].end = static_cast<uint32_t>(nodes_.size());
      return true;
    }
    default:
      return Number();
  }
}

bool PlainJson::String() {
  const char* start = ++p_;
  p_ = SkipPlainChars(p_, end_);
  // Escapes, control characters and non-ASCII bytes are the full parser's business.
  if (p_ == end_ || *p_ != '"') return false;
  nodes_.push_back(Node{Kind::kString, std::string_view(start, p_ - start),
                        static_cast<uint32_t>(nodes_.size() + 1)});
  ++p_;
  return true;
}

bool PlainJson::Number() {
  const char* start = p_;
  if (p_ < end_ && *p_ == '-') ++p_;
  if (p_ == end_ || !IsDigit(*p_)) return false;
  if (*p_ == '0') {
    ++p_;
  } else {
    while (p_ < end_ && IsDigit(*p_)) ++p_;
  }
  Kind kind = Kind::kInteger;
  bool exponent = false;
  if (p_ < end_ && *p_ == '.') {
    kind = Kind::kFloat;
    ++p_;
    if (p_ == end_ || !IsDigit(*p_)) return false;
    while (p_ < end_ && IsDigit(*p_)) ++p_;
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    kind = Kind::kFloat;
    exponent = true;
    ++p_;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (p_ == end_ || !IsDigit(*p_)) return false;
    while (p_ < end_ && IsDigit(*p_)) ++p_;
  }
  const std::string_view token(start, p_ - start);
  // The full parser reads a number that needs it as a long double and refuses one that
  // overflows (1e99999); short tokens without an exponent cannot.
  if (token.size() > kMaxPlainNumber) return false;
  if (exponent) {
    char copy[kMaxPlainNumber + 1];
    std::memcpy(copy, token.data(), token.size());
    copy[token.size()] = '\0';
    if (!std::isfinite(std::strtold(copy, nullptr))) return false;
  }
  nodes_.push_back(Node{kind, token, static_cast<uint32_t>(nodes_.size() + 1)});
  return true;
}

bool PlainJson::Literal(std::string_view word, Kind kind) {
  if (static_cast<size_t>(end_ - p_) < word.size()) return false;
  // Four or five bytes: compared here, not by a call to memcmp.
  for (size_t i = 0; i < word.size(); ++i) {
    if (p_[i] != word[i]) return false;
  }
  nodes_.push_back(
      Node{kind, std::string_view(p_, word.size()), static_cast<uint32_t>(nodes_.size() + 1)});
  p_ += word.size();
  return true;
}

int64_t PlainJson::Find(uint32_t object, std::string_view key) const {
  int64_t found = -1;
  for (uint32_t i = object + 1; i < nodes_[object].end; i = nodes_[i + 1].end) {
    if (nodes_[i].text == key) found = i + 1;
  }
  return found;
}

}  // namespace sluice
