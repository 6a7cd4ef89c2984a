// UTF-8 validation and repair: the one home for deciding whether bytes are well-formed UTF-8
// and for turning any bytes into well-formed UTF-8.
//
// Paimon stores a STRING as bytes and never checks them, so a table may hold any bytes. Input
// paths refuse ill-formed strings (IsValidUtf8, FindInvalidUtf8Value); output paths print what a
// table holds the way Java shows it (AppendUtf8Replacing).
//
// Well-formed is RFC 3629 / Unicode Table 3-7: no overlong forms, no UTF-16 surrogates
// (U+D800..U+DFFF), nothing above U+10FFFF, no truncated sequence. Noncharacters such as U+FFFF
// are well-formed.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice {

// Offset of the first byte of `text` that does not begin a well-formed sequence (the lead byte
// of the first ill-formed or truncated one), or text.size() when all of `text` is well-formed.
// ASCII runs are checked eight bytes at a time.
size_t FindInvalidUtf8(std::string_view text);

inline bool IsValidUtf8(std::string_view text) { return FindInvalidUtf8(text) == text.size(); }

// The first of `count` values (value i is bytes[offsets[i], offsets[i + 1]), offsets
// non-decreasing) that is not well-formed UTF-8, or -1 when all are. One pass over the bytes of
// all the values when they are well-formed; each value is checked on its own only after that
// pass failed or a value starts inside a character.
int64_t FindInvalidUtf8Value(const char* bytes, const int32_t* offsets, int64_t count);

// The number of code points of `text` (the bytes that are not continuation bytes), and the byte
// offset of code point `index` (text.size() when `index` is at or past the end): what cutting
// text to a length in characters needs (Java's CHAR / VARCHAR casts, substring).
size_t CountCodePoints(std::string_view text);
size_t CodePointOffset(std::string_view text, size_t index);

// Appends `text` to `out` as Java's `new String(bytes, UTF_8)` decodes it (and so Paimon's
// BinaryString.toString(), which falls back to it for ill-formed bytes), re-encoded as UTF-8:
// well-formed text is appended unchanged; each ill-formed part becomes one U+FFFD. A part is
// the longest prefix of a well-formed sequence (Unicode's "maximal subpart": F0 9F 98 is one
// part, C0, F5 and a stray continuation byte one part each), except that the JDK takes ED
// followed by A0..BF (an encoded surrogate) as a lead and its continuation: ED A0 80 is one
// part, not three, and ED A0 41 is one part and 'A'.
void AppendUtf8Replacing(std::string_view text, std::string* out);

}  // namespace sluice
