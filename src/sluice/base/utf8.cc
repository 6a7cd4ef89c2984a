#include "sluice/base/utf8.h"

#include <cstring>

namespace sluice {

namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ULL;
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool IsContinuation(uint8_t b) { return (b & 0xC0) == 0x80; }

// The length of the ill-formed part starting at s[0] (REQUIRES: s[0..avail) does not start with
// a well-formed sequence, avail >= 1), as the JDK's String decoding (StringCoding /
// String.decodeUTF8_UTF16 with its malformed3 / malformed4 helpers, JDK 8 through 21) skips it
// for one U+FFFD.
size_t JavaIllFormedLength(const uint8_t* s, size_t avail) {
  const uint8_t b1 = s[0];
  if (b1 >= 0xC2 && b1 <= 0xDF) return 1;  // Its second byte is no continuation, or missing.
  if (b1 >= 0xE0 && b1 <= 0xEF) {
    if (avail >= 3) {
      const bool overlong = b1 == 0xE0 && (s[1] & 0xE0) == 0x80;
      if (overlong || !IsContinuation(s[1])) return 1;
      // ED A0..BF xx decodes to a surrogate, which the JDK replaces whole.
      return IsContinuation(s[2]) ? 3 : 2;
    }
    if (avail == 2 && ((b1 == 0xE0 && (s[1] & 0xE0) == 0x80) || !IsContinuation(s[1]))) return 1;
    return avail;  // A truncated sequence at the end: the JDK stops there.
  }
  if (b1 >= 0xF0 && b1 <= 0xF7) {
    auto bad_second = [&](uint8_t b2) {
      return (b1 == 0xF0 && (b2 < 0x90 || b2 > 0xBF)) || (b1 == 0xF4 && (b2 & 0xF0) != 0x80) ||
             !IsContinuation(b2);
    };
    if (b1 > 0xF4 || (avail >= 2 && bad_second(s[1]))) return 1;
    if (avail >= 4) return IsContinuation(s[2]) ? 3 : 2;
    if (avail == 3 && !IsContinuation(s[2])) return 2;
    return avail;
  }
  return 1;  // A continuation byte, C0, C1 or F8..FF.
}

}  // namespace

size_t FindInvalidUtf8(std::string_view text) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    if (s[i] < 0x80) {
      for (uint64_t word; i + 8 <= n; i += 8) {
        std::memcpy(&word, s + i, sizeof(word));
        if ((word & kHighBits) != 0) break;
      }
      while (i < n && s[i] < 0x80) ++i;
      if (i == n) break;
    }
    // Unicode Table 3-7: the second byte's range depends on the lead; later ones are 80..BF.
    const uint8_t b = s[i];
    size_t length;
    uint8_t low = 0x80;
    uint8_t high = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      if (b == 0xE0) low = 0xA0;   // overlong below
      if (b == 0xED) high = 0x9F;  // surrogates above
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      if (b == 0xF0) low = 0x90;   // overlong below
      if (b == 0xF4) high = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (n - i < length || s[i + 1] < low || s[i + 1] > high) return i;
    for (size_t k = 2; k < length; ++k) {
      if (!IsContinuation(s[i + k])) return i;
    }
    i += length;
  }
  return n;
}

int64_t FindInvalidUtf8Value(const char* bytes, const int32_t* offsets, int64_t count) {
  if (count <= 0) return -1;
  auto value = [&](int64_t i) {
    return std::string_view(bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
  };
  const std::string_view all(bytes + offsets[0], static_cast<size_t>(offsets[count] - offsets[0]));
  if (IsValidUtf8(all)) {
    // Well-formed as a whole, the values are each well-formed unless a character straddles two
    // of them, and then the second starts with a continuation byte.
    bool straddles = false;
    for (int64_t i = 0; i < count && !straddles; ++i) {
      straddles =
          offsets[i] < offsets[i + 1] && IsContinuation(static_cast<uint8_t>(bytes[offsets[i]]));
    }
    if (!straddles) return -1;
  }
  for (int64_t i = 0; i < count; ++i) {
    if (!IsValidUtf8(value(i))) return i;
  }
  return -1;
}

void AppendUtf8Replacing(std::string_view text, std::string* out) {
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t valid = FindInvalidUtf8(text.substr(pos));
    out->append(text.data() + pos, valid);
    pos += valid;
    if (pos == text.size()) break;
    pos += JavaIllFormedLength(s + pos, text.size() - pos);
    out->append(kReplacement);
  }
}

size_t CountCodePoints(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

size_t CodePointOffset(std::string_view text, size_t index) {
  size_t seen = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      if (seen == index) return i;
      ++seen;
    }
  }
  return text.size();
}

}  // namespace sluice
