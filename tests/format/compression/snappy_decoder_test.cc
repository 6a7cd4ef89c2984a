#include "sluice/format/compression/snappy_decoder.h"

#include <gtest/gtest.h>
#include <snappy.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

std::string Decompressed(std::string_view block, size_t length) {
  std::string out(length, '\xAA');
  Status st = SnappyDecompress(block, reinterpret_cast<uint8_t*>(out.data()), out.size());
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

// Checks that libsnappy's compression of `input` decodes back to it.
void ExpectRoundTrip(const std::string& input) {
  std::string block;
  snappy::Compress(input.data(), input.size(), &block);
  Result<size_t> length = SnappyUncompressedLength(block);
  ASSERT_TRUE(length.ok()) << length.status().ToString();
  ASSERT_EQ(*length, input.size());
  ASSERT_EQ(Decompressed(block, input.size()), input) << "input of " << input.size() << " bytes";
}

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>(v | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}

// A literal element of `data` with the length in `length_bytes` bytes after the tag (0: in the
// tag).
std::string Literal(const std::string& data, int length_bytes = 0) {
  std::string out;
  size_t n = data.size() - 1;
  if (length_bytes == 0) {
    out += static_cast<char>(n << 2);
  } else {
    out += static_cast<char>((59 + length_bytes) << 2);
    for (int i = 0; i < length_bytes; ++i) out += static_cast<char>(n >> (8 * i));
  }
  return out + data;
}

// A copy element with a 2-byte (type 2) or 4-byte (type 3) offset.
std::string Copy(size_t offset, size_t len, int type = 2) {
  std::string out(1, static_cast<char>((len - 1) << 2 | static_cast<size_t>(type)));
  for (int i = 0; i < (type == 2 ? 2 : 4); ++i) out += static_cast<char>(offset >> (8 * i));
  return out;
}

TEST(SnappyDecoderTest, DecodesWhatLibsnappyWrites) {
  std::mt19937 rng(7);
  // Every small size, so that the ends of the fast path (80 bytes of room) fall on every element.
  for (size_t size = 0; size <= 300; ++size) {
    std::string text;
    for (size_t i = 0; i < size; ++i) text += "paimon-lake "[(i * 7 + i / 13) % 12];
    ExpectRoundTrip(text);
    std::string noise;
    for (size_t i = 0; i < size; ++i) noise += static_cast<char>(rng());
    ExpectRoundTrip(noise);
  }
  // Repeating patterns of every period up to 80: copies from 1-7 bytes back (patterns), 8-15,
  // 16-63 and further, in runs short and long.
  for (size_t period = 1; period <= 80; ++period) {
    for (size_t size : {size_t{20}, size_t{100}, size_t{5000}}) {
      std::string input;
      for (size_t i = 0; i < size; ++i) input += static_cast<char>('a' + (i % period) % 26);
      ExpectRoundTrip(input);
    }
  }
  // Long literals (lengths in one and two bytes after the tag) among copies, and blocks of
  // several of libsnappy's 64 KiB fragments.
  std::string mixed;
  while (mixed.size() < 300000) {
    size_t run = rng() % 3000;
    if (rng() % 2 == 0) {
      for (size_t i = 0; i < run; ++i) mixed += static_cast<char>(rng());
    } else {
      mixed += std::string(run, static_cast<char>(rng()));
      mixed += "row-" + std::to_string(rng() % 50) + ";";
    }
  }
  ExpectRoundTrip(mixed);
}

TEST(SnappyDecoderTest, DecodesElementsLibsnappyNeverWrites) {
  // A literal whose length takes three bytes, and a copy with a four-byte offset (libsnappy
  // compresses 64 KiB fragments, so it writes neither).
  std::string first(70000, 'x');
  for (size_t i = 0; i < first.size(); i += 3) first[i] = static_cast<char>('a' + i % 23);
  std::string block =
      Varint(first.size() + 10 + 4) + Literal(first, 3) + Copy(70000, 10, 3) + Literal("tail", 1);
  EXPECT_EQ(Decompressed(block, first.size() + 14), first + first.substr(0, 10) + "tail");
  // Runs from 5 bytes back and from 1 byte back, far from the end (the fast path's patterns).
  std::string runs =
      Literal("abcde") + Copy(5, 64) + Copy(1, 64) + Literal(std::string(90, 'z'), 1);
  std::string pattern;
  while (pattern.size() < 64) pattern += "abcde";
  pattern.resize(64);
  std::string want = "abcde" + pattern + std::string(64, pattern.back()) + std::string(90, 'z');
  EXPECT_EQ(Decompressed(Varint(want.size()) + runs, want.size()), want);
  // A four-byte literal length of 0xffffffff: libsnappy adds the one in 32 bits and reads an
  // empty literal (the fuzzer's find), so the block is valid for both.
  std::string empty_literal = Varint(1) + Literal("*") + std::string("\xfc\xff\xff\xff\xff", 5);
  std::string theirs(1, '\0');
  ASSERT_TRUE(snappy::RawUncompress(empty_literal.data(), empty_literal.size(), theirs.data()));
  EXPECT_EQ(Decompressed(empty_literal, 1), theirs);
}

TEST(SnappyDecoderTest, MalformedBlocksAreCorruptionNamingTheByte) {
  struct Case {
    std::string block;
    size_t length;
    std::string message;
  };
  const std::string hello = Literal("hello");
  const std::vector<Case> cases = {
      {"", 0, "the length preamble ends at byte 0"},
      {"\x80\x80", 0, "the length preamble ends at byte 2"},
      {"\xff\xff\xff\xff\x1f", 0, "exceeds 32 bits at byte 4"},
      {Varint(5) + hello, 6, "decompresses to 5 bytes, expected 6"},
      {Varint(5) + hello.substr(0, 4), 5,
       "a literal of 5 bytes runs past the block's end at byte 1"},
      {Varint(4) + hello, 4, "runs past the declared length 4 at byte 1"},
      {Varint(8) + hello + Copy(0, 3), 8, "a copy from 0 bytes back, after 5 bytes of output"},
      {Varint(8) + hello + Copy(6, 3), 8, "a copy from 6 bytes back, after 5 bytes of output"},
      {Varint(9) + hello + Copy(5, 5), 9, "a copy of 5 bytes runs past the declared length 9"},
      {Varint(8) + hello + Copy(5, 3).substr(0, 2), 8, "a copy's offset runs past the block's end"},
      {Varint(70) + Literal("x", 2).substr(0, 2), 70, "a literal's length runs past"},
      {Varint(9) + hello, 9, "snappy block ends after 5 of its declared 9 bytes"},
  };
  for (const Case& c : cases) {
    std::string out(c.length, '\0');
    EXPECT_TRUE(
        HasError(SnappyDecompress(c.block, reinterpret_cast<uint8_t*>(out.data()), c.length),
                 StatusCode::kCorruption, {c.message}))
        << c.message;
  }
  // A copy reaching before the output's start far into a block (on the fast path).
  std::string far = Literal(std::string(60, 'a')) + Literal(std::string(60, 'b')) + Copy(500, 8) +
                    Literal(std::string(60, 'c'));
  std::string out(188, '\0');
  EXPECT_TRUE(HasError(SnappyDecompress(Varint(out.size()) + far,
                                        reinterpret_cast<uint8_t*>(out.data()), out.size()),
                       StatusCode::kCorruption,
                       {"a copy from 500 bytes back, after 120 bytes of output, at byte 124"}));
}

}  // namespace
}  // namespace sluice
