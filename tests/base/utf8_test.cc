#include "sluice/base/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sluice {
namespace {

// The bytes of a hex string ("c3 a9" -> "\xc3\xa9").
std::string Hex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); ++i) {
    if (hex[i] == ' ') continue;
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
    ++i;
  }
  return out;
}

std::string Replaced(std::string_view text) {
  std::string out;
  AppendUtf8Replacing(text, &out);
  return out;
}

constexpr std::string_view kFffd = "\xEF\xBF\xBD";

TEST(Utf8Test, WellFormedTextIsValid) {
  const std::vector<std::string> valid = {
      "",
      "plain ASCII longer than one eight-byte word",
      Hex("7f"),           // U+007F
      Hex("c2 80"),        // U+0080
      Hex("df bf"),        // U+07FF
      Hex("e0 a0 80"),     // U+0800
      Hex("ed 9f bf"),     // U+D7FF, below the surrogates
      Hex("ee 80 80"),     // U+E000, above them
      Hex("ef bf bf"),     // U+FFFF, a noncharacter but well-formed
      Hex("f0 90 80 80"),  // U+10000
      Hex("f4 8f bf bf"),  // U+10FFFF
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 and ASCII after the multi-byte characters",
  };
  for (const std::string& text : valid) {
    EXPECT_TRUE(IsValidUtf8(text)) << text;
    EXPECT_EQ(Replaced(text), text);
  }
}

TEST(Utf8Test, FindsTheFirstIllFormedSequence) {
  struct Case {
    std::string text;
    size_t offset;
  };
  const std::vector<Case> cases = {
      // Overlong encodings.
      {Hex("c0 af"), 0},
      {Hex("c1 bf"), 0},
      {Hex("e0 80 af"), 0},
      {Hex("e0 9f bf"), 0},
      {Hex("f0 8f bf bf"), 0},
      // UTF-16 surrogates.
      {Hex("ed a0 80"), 0},
      {Hex("ed bf bf"), 0},
      // Above U+10FFFF, and leads no sequence has.
      {Hex("f4 90 80 80"), 0},
      {Hex("f5 80 80 80"), 0},
      {Hex("f8 88 80 80 80"), 0},
      {Hex("fe"), 0},
      {Hex("ff"), 0},
      // Truncated sequences, at the end and before other bytes.
      {"abc" + Hex("c3"), 3},
      {"abc" + Hex("e2 82"), 3},
      {"abc" + Hex("f0 9f 98"), 3},
      {Hex("e2 82") + "x", 0},
      {Hex("f0 9f 98") + "x", 0},
      // A continuation byte without a lead.
      {Hex("80"), 0},
      {"0123456789" + Hex("bf"), 10},
      // After a well-formed multi-byte character, past an eight-byte ASCII run.
      {"\xC3\xA9" + std::string("0123456789abcdef") + Hex("ff"), 18},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(FindInvalidUtf8(c.text), c.offset) << c.text;
    EXPECT_FALSE(IsValidUtf8(c.text)) << c.text;
  }
}

// Each expectation is what Java 17 prints for `new String(bytes, StandardCharsets.UTF_8)`,
// which Paimon's BinaryString.toString() falls back to (BinaryString.decodeUTF8 ->
// defaultDecodeUTF8) whenever its strict decoder meets an ill-formed sequence.
// Each expectation is what Java 17 prints for `new String(bytes, StandardCharsets.UTF_8)`,
// which Paimon's BinaryString.toString() falls back to (BinaryString.decodeUTF8 ->
// defaultDecodeUTF8) whenever its strict decoder meets an ill-formed sequence.
TEST(Utf8Test, ReplacesEachIllFormedPartWithOneReplacementCharacterAsJavaDoes) {
  struct Case {
    std::string hex;
    std::string expected;  // '?' stands for U+FFFD
  };
  const std::vector<Case> cases = {
      {"61 ff 62", "a?b"},
      {"c0 af", "??"},
      {"c1 bf", "??"},
      {"e0 80 af", "???"},
      {"e0 80 80", "???"},
      {"f0 80 80 80", "????"},
      {"f4 90 80 80", "????"},
      {"f7 bf bf bf", "????"},
      {"f8 88 80 80 80", "?????"},
      {"80 80", "??"},
      {"f5 80", "??"},
      {"c3", "?"},
      {"c3 78", "?x"},
      {"e2 82", "?"},
      {"e2 82 78", "?x"},
      {"e0 a0", "?"},
      {"e0 a0 78", "?x"},
      {"f0 9f 98", "?"},
      {"f0 9f 98 78", "?x"},
      {"f0 90 80 41", "?A"},
      {"f0 90 41 42", "?AB"},
      {"f0 80 80", "???"},
      {"f0 90", "?"},
      {"f0", "?"},
      {"61 f0", "a?"},
      {"f0 f0 9f 98 80", "?\xF0\x9F\x98\x80"},
      {"e2 e2 82 ac", "?\xE2\x82\xAC"},
      // The JDK's departure from Unicode's maximal subparts: an encoded surrogate is one part.
      {"ed a0 80", "?"},
      {"ed bf bf", "?"},
      {"ed a0 80 ed a0 80", "??"},
      {"ed a0", "?"},
      {"ed a0 78", "?x"},
  };
  for (const Case& c : cases) {
    std::string expected;
    for (char ch : c.expected) {
      if (ch == '?') {
        expected += kFffd;
      } else {
        expected += ch;
      }
    }
    const std::string out = Replaced(Hex(c.hex));
    EXPECT_EQ(out, expected) << c.hex;
    EXPECT_TRUE(IsValidUtf8(out)) << c.hex;
  }
  // Well-formed text around ill-formed parts is kept as it is.
  EXPECT_EQ(Replaced("caf\xC3\xA9" + Hex("ff") + "\xE2\x82\xAC"),
            "caf\xC3\xA9" + std::string(kFffd) + "\xE2\x82\xAC");
}

TEST(Utf8Test, FindsTheFirstIllFormedValueOfAColumn) {
  auto find = [](const std::vector<std::string>& values) {
    std::string bytes;
    std::vector<int32_t> offsets = {0};
    for (const std::string& v : values) {
      bytes += v;
      offsets.push_back(static_cast<int32_t>(bytes.size()));
    }
    return FindInvalidUtf8Value(bytes.data(), offsets.data(), static_cast<int64_t>(values.size()));
  };
  EXPECT_EQ(find({}), -1);
  EXPECT_EQ(find({"a", "", "caf\xC3\xA9", "\xF0\x9F\x98\x80"}), -1);
  EXPECT_EQ(find({"a", "b", "c\xFF", "\xFF"}), 2);
  // Well-formed as a whole, but "\xC3\xA9" is split between two values: both are ill-formed.
  EXPECT_EQ(find({"ok", "caf\xC3", "\xA9", "x"}), 1);
  EXPECT_EQ(find({"\xC3", "", "\xA9"}), 0);
  // A column read from an offset: value i is bytes[offsets[i], offsets[i + 1]).
  const std::string bytes =
      "xx\xFF"
      "abc";
  const int32_t offsets[] = {3, 4, 6};
  EXPECT_EQ(FindInvalidUtf8Value(bytes.data(), offsets, 2), -1);
}

}  // namespace
}  // namespace sluice
