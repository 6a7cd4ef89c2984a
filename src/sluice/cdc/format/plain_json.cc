#include "sluice/cdc/format/plain_json.h"

#include <algorithm>
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
  // The terminator is no plain byte.
  while (kPlainChar[static_cast<unsigned char>(*p)]) ++p;
  return p;
}

// Past the JSON whitespace from `p` on. Reads the text's terminator, which is no space.
const char* SkipSpace(const char* p) {
  while (static_cast<unsigned char>(*p) <= ' ' &&
         (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) {
    ++p;
  }
  return p;
}

// The first byte from `p` on that is not a decimal digit (or `end`). Numbers of CDC messages
// are mostly long (epoch millis, binlog positions): eight bytes at a time.
const char* SkipDigits(const char* p, const char* end) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  constexpr uint64_t kHighNibbles = 0xF0F0F0F0F0F0F0F0;
  constexpr uint64_t kDigitNibbles = 0x3030303030303030;
  constexpr uint64_t kSixes = 0x0606060606060606;
  while (end - p >= 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof(word));
    // Nonzero in each byte but '0'..'9', whose high nibble is 3 and stays 3 when 6 is added.
    // A carry out of a byte comes from a byte that is not a digit, and only reaches the bytes
    // after it: the first byte flagged is the first that is not a digit.
    const uint64_t other = ((word & kHighNibbles) ^ kDigitNibbles) |
                           (((word + kSixes) & kHighNibbles) ^ kDigitNibbles);
    if (other != 0) return p + __builtin_ctzll(other) / 8;
    p += 8;
  }
#endif
  while (IsDigit(*p)) ++p;
  return p;
}

// The end of the number token at `p` (its kind in *kind), or nullptr when it is not one the
// plain reading takes.
const char* ScanNumber(const char* p, const char* end, PlainJson::Kind* kind) {
  const char* start = p;
  if (*p == '-') ++p;
  if (!IsDigit(*p)) return nullptr;
  p = *p == '0' ? p + 1 : SkipDigits(p, end);
  *kind = PlainJson::Kind::kInteger;
  bool exponent = false;
  if (*p == '.') {
    *kind = PlainJson::Kind::kFloat;
    ++p;
    if (!IsDigit(*p)) return nullptr;
    p = SkipDigits(p, end);
  }
  if (*p == 'e' || *p == 'E') {
    *kind = PlainJson::Kind::kFloat;
    exponent = true;
    ++p;
    if (*p == '+' || *p == '-') ++p;
    if (!IsDigit(*p)) return nullptr;
    p = SkipDigits(p, end);
  }
  const size_t size = static_cast<size_t>(p - start);
  // The full parser reads a number that needs it as a long double and refuses one that
  // overflows (1e99999); short tokens without an exponent cannot.
  if (size > kMaxPlainNumber) return nullptr;
  if (exponent) {
    char copy[kMaxPlainNumber + 1];
    std::memcpy(copy, start, size);
    copy[size] = '\0';
    if (!std::isfinite(std::strtold(copy, nullptr))) return nullptr;
  }
  return p;
}

// Whether `word` is written at `p`. Stops at the first byte that differs, at the latest the
// text's terminator.
bool HasWord(const char* p, std::string_view word) {
  // Four or five bytes: compared here, not by a call to memcmp.
  for (size_t i = 0; i < word.size(); ++i) {
    if (p[i] != word[i]) return false;
  }
  return true;
}

}  // namespace

// One loop over the tokens with the open objects and arrays on a small stack of their own, the
// position and the nodes written in locals: the nodes written cannot alias them, so they stay
// in registers. The terminator of `text` ends every token (it is no JSON byte), so the bytes
// are read without testing for the end first; only the strings' sixteen-byte steps and the
// digits' eight-byte steps test it.
bool PlainJson::Scan(const std::string& text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  Node* nodes = nodes_.data();
  auto capacity = static_cast<uint32_t>(nodes_.size());
  uint32_t size = 0;
  auto add = [&](Kind kind, std::string_view token, uint32_t after) {
    if (size == capacity) {
      nodes_.resize(std::max<size_t>(2 * nodes_.size(), 64));
      nodes = nodes_.data();
      capacity = static_cast<uint32_t>(nodes_.size());
    }
    nodes[size++] = Node{kind, token, after};
  };
  // The open objects and arrays, innermost last: their nodes, and whether each is an object.
  uint32_t open[kMaxCdcJsonDepth];
  bool open_object[kMaxCdcJsonDepth];
  int depth = 0;
  // After `{` or `,` in an object: the member's key and its colon.
  auto key = [&]() {
    p = SkipSpace(p);
    if (*p != '"') return false;
    const char* start = ++p;
    p = SkipPlainChars(p, end);
    // Escapes, control characters and non-ASCII bytes are the full parser's business.
    if (*p != '"') return false;
    add(Kind::kString, std::string_view(start, p - start), size + 1);
    p = SkipSpace(p + 1);
    if (*p != ':') return false;
    ++p;
    return true;
  };
  while (true) {
    // A value.
    p = SkipSpace(p);
    const uint32_t next = size + 1;
    switch (*p) {
      case '"': {
        const char* start = ++p;
        p = SkipPlainChars(p, end);
        if (*p != '"') return false;
        add(Kind::kString, std::string_view(start, p - start), next);
        ++p;
        break;
      }
      case 'n':
      case 't':
      case 'f': {
        const std::string_view word = *p == 'n' ? "null" : *p == 't' ? "true" : "false";
        if (!HasWord(p, word)) return false;
        const Kind kind = *p == 'n' ? Kind::kNull : *p == 't' ? Kind::kTrue : Kind::kFalse;
        add(kind, std::string_view(p, word.size()), next);
        p += word.size();
        break;
      }
      case '{':
      case '[': {
        if (depth >= kMaxCdcJsonDepth) return false;
        const bool object = *p == '{';
        open[depth] = size;
        open_object[depth] = object;
        ++depth;
        add(object ? Kind::kObject : Kind::kArray, {}, 0);
        p = SkipSpace(p + 1);
        if (*p == (object ? '}' : ']')) {
          ++p;
          --depth;
          nodes[open[depth]].end = size;
          break;
        }
        if (object && !key()) return false;
        // Its first value.
        continue;
      }
      default: {
        Kind kind;
        const char* token_end = ScanNumber(p, end, &kind);
        if (token_end == nullptr) return false;
        add(kind, std::string_view(p, token_end - p), next);
        p = token_end;
        break;
      }
    }
    // After a value: the objects and arrays that close here, then a comma before the next.
    while (true) {
      p = SkipSpace(p);
      if (depth == 0) return p == end;
      const bool object = open_object[depth - 1];
      if (*p == ',') {
        ++p;
        if (object && !key()) return false;
        break;
      }
      if (*p != (object ? '}' : ']')) return false;
      ++p;
      --depth;
      nodes[open[depth]].end = size;
    }
  }
}

int64_t PlainJson::Find(uint32_t object, std::string_view key) const {
  int64_t found = -1;
  for (uint32_t i = object + 1; i < nodes_[object].end; i = nodes_[i + 1].end) {
    if (nodes_[i].text == key) found = i + 1;
  }
  return found;
}

}  // namespace sluice
