// The Parquet decoders on hand-made streams (Encodings.md examples and edge cases).

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sluice/format/parquet/decoder/bit_unpack.h"
#include "sluice/format/parquet/decoder/byte_stream_split_decoder.h"
#include "sluice/format/parquet/decoder/delta_binary_packed_decoder.h"
#include "sluice/format/parquet/decoder/delta_byte_array_decoder.h"
#include "sluice/format/parquet/decoder/delta_length_byte_array_decoder.h"
#include "sluice/format/parquet/decoder/dictionary_decoder.h"
#include "sluice/format/parquet/decoder/plain_decoder.h"
#include "sluice/format/parquet/decoder/rle_bit_packed_decoder.h"
#include "test_util.h"

namespace sluice::parquet {
namespace {

std::vector<uint8_t> B(std::initializer_list<int> bytes) {
  std::vector<uint8_t> out;
  for (int b : bytes) out.push_back(static_cast<uint8_t>(b));
  return out;
}

// Packs `values` of `width` bits LSB first, one bit at a time: the reference layout.
std::vector<uint8_t> PackBits(const std::vector<uint64_t>& values, int width) {
  std::vector<uint8_t> out((values.size() * static_cast<size_t>(width) + 7) / 8);
  size_t bit = 0;
  for (uint64_t v : values) {
    for (int b = 0; b < width; ++b, ++bit) {
      if ((v >> b) & 1) out[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
  return out;
}

template <typename T>
void ExpectUnpacksEveryWidth(int max_width) {
  std::mt19937_64 random(12);
  for (int width = 0; width <= max_width; ++width) {
    uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    // Counts around whole groups, and buffers of exactly the packed size (heap, so that
    // AddressSanitizer sees a read past the end), to cover both the group and the tail code.
    for (int count : {0, 1, 7, 8, 9, 16, 23, 24, 25, 64, 67, 200}) {
      std::vector<uint64_t> values(static_cast<size_t>(count));
      for (uint64_t& v : values) v = random() & mask;
      std::vector<uint8_t> packed = PackBits(values, width);
      auto in = std::make_unique<uint8_t[]>(packed.size());
      if (!packed.empty()) std::memcpy(in.get(), packed.data(), packed.size());
      std::vector<T> out(static_cast<size_t>(count) + 1, T{77});
      UnpackBits(in.get(), packed.size(), width, count, out.data());
      for (int i = 0; i < count; ++i) {
        ASSERT_EQ(static_cast<uint64_t>(out[static_cast<size_t>(i)]),
                  values[static_cast<size_t>(i)])
            << "width " << width << ", count " << count << ", value " << i;
      }
      EXPECT_EQ(out.back(), T{77}) << "width " << width << ", count " << count;
    }
  }
}

TEST(BitUnpackTest, MatchesBitByBitPackingForEveryWidth) {
  ExpectUnpacksEveryWidth<uint64_t>(64);
  ExpectUnpacksEveryWidth<uint32_t>(32);
  ExpectUnpacksEveryWidth<uint8_t>(8);
}

TEST(RleBitPackedDecoderTest, MixesRunsAndBitPackedGroups) {
  // Bit width 3: a repeated run of 4 x 5, then one bit-packed group of 0..7.
  std::vector<uint8_t> in = B({0x08, 0x05, 0x03, 0x88, 0xC6, 0xFA});
  RleBitPackedDecoder d(in.data(), in.size(), 3);
  std::vector<uint32_t> out(12);
  ASSERT_OK(d.Decode(out.data(), 12));
  EXPECT_EQ(out, (std::vector<uint32_t>{5, 5, 5, 5, 0, 1, 2, 3, 4, 5, 6, 7}));
  // Asking for more than the stream holds is an error, not a read past the end.
  uint32_t more;
  EXPECT_TRUE(test::HasError(d.Decode(&more, 1), StatusCode::kCorruption, {"RLE/bit-packed"}));
}

TEST(RleBitPackedDecoderTest, StartsMidGroupAndDecodesLevels) {
  std::vector<uint8_t> in = B({0x03, 0x88, 0xC6, 0xFA});
  RleBitPackedDecoder d(in.data(), in.size(), 3);
  int16_t a[3], b[5];
  ASSERT_OK(d.Decode(a, 3));
  ASSERT_OK(d.Decode(b, 5));
  EXPECT_EQ(a[2], 2);
  EXPECT_EQ(b[0], 3);
  EXPECT_EQ(b[4], 7);
}

TEST(RleBitPackedDecoderTest, TellsWhetherTheNextValuesAreOneRepeatedValue) {
  // Bit width 1: repeated runs of 3 x 1 and 5 x 1, then a bit-packed group.
  std::vector<uint8_t> in = B({0x06, 0x01, 0x0A, 0x01, 0x03, 0xFF});
  RleBitPackedDecoder d(in.data(), in.size(), 1);
  EXPECT_TRUE(d.NextAreRepeated(1, 0));
  EXPECT_TRUE(d.NextAreRepeated(1, 3));
  EXPECT_TRUE(d.NextAreRepeated(1, 8));   // Across two runs.
  EXPECT_FALSE(d.NextAreRepeated(1, 9));  // A bit-packed run follows, even of ones.
  EXPECT_FALSE(d.NextAreRepeated(0, 1));
  // Nothing was consumed; after decoding two values, six ones are left in the runs.
  int16_t two[2];
  ASSERT_OK(d.Decode(two, 2));
  EXPECT_TRUE(d.NextAreRepeated(1, 6));
  EXPECT_FALSE(d.NextAreRepeated(1, 7));
  // A stream that ends early is not a run.
  std::vector<uint8_t> cut = B({0x06, 0x01});
  RleBitPackedDecoder short_run(cut.data(), cut.size(), 1);
  EXPECT_FALSE(short_run.NextAreRepeated(1, 4));
  RleBitPackedDecoder empty(cut.data(), 0, 1);
  EXPECT_FALSE(empty.NextAreRepeated(1, 1));
}

TEST(DeltaBinaryPackedDecoderTest, DecodesTheSpecExamples) {
  // Encodings.md example 1: 1, 2, 3, 4, 5 (all deltas equal: bit width 0).
  std::vector<uint8_t> ex1 = B({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00});
  DeltaBinaryPackedDecoder d;
  ASSERT_OK(d.Init(ex1.data(), ex1.size()));
  std::vector<int64_t> out(5);
  ASSERT_OK(d.Decode(out.data(), 5));
  EXPECT_EQ(out, (std::vector<int64_t>{1, 2, 3, 4, 5}));
  // Example 2: 7, 5, 3, 1, 2, 3, 4, 5 (min delta -2, bit width 2).
  std::vector<uint8_t> ex2 = B({0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02, 0x00, 0x00, 0x00, 0xC0,
                                0x3F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  ASSERT_OK(d.Init(ex2.data(), ex2.size()));
  out.resize(8);
  ASSERT_OK(d.Decode(out.data(), 3));
  ASSERT_OK(d.Decode(out.data() + 3, 5));
  EXPECT_EQ(out, (std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  EXPECT_EQ(d.consumed(), ex2.size());
}

TEST(DeltaBinaryPackedDecoderTest, RejectsBadHeadersAndShortStreams) {
  DeltaBinaryPackedDecoder d;
  std::vector<uint8_t> bad_block = B({0x81, 0x01, 0x04, 0x05, 0x02});  // block size 129
  EXPECT_TRUE(test::HasError(d.Init(bad_block.data(), bad_block.size()), StatusCode::kCorruption,
                             {"DELTA_BINARY_PACKED header: bad block size 129"}));
  std::vector<uint8_t> short_stream = B({0x80, 0x01, 0x04, 0x08, 0x0E, 0x03, 0x02});
  ASSERT_OK(d.Init(short_stream.data(), short_stream.size()));
  std::vector<int64_t> out(8);
  EXPECT_TRUE(
      test::HasError(d.Decode(out.data(), 8), StatusCode::kCorruption, {"DELTA_BINARY_PACKED"}));
  std::vector<uint8_t> truncated = B({0x80, 0x01});
  EXPECT_TRUE(test::HasError(d.Init(truncated.data(), truncated.size()), StatusCode::kCorruption,
                             {"DELTA_BINARY_PACKED header runs short"}));
}

TEST(ByteArrayDecodersTest, DeltaLengthAndDeltaByteArray) {
  // Lengths 5, 5, 6, 6 (deltas 0, 1, 0: min 0, bit width 1), then the bytes.
  std::vector<uint8_t> in =
      B({0x80, 0x01, 0x04, 0x04, 0x0A, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00});
  std::string text = "HelloWorldFoobarABCDEF";
  in.insert(in.end(), text.begin(), text.end());
  ColumnValues values;
  values.Reset(PhysicalType::kByteArray, 0);
  ASSERT_OK(DecodeDeltaLengthByteArray(in.data(), in.size(), 4, &values));
  ASSERT_EQ(values.count(), 4);
  int32_t len;
  const uint8_t* p = values.BytesAt(2, &len);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p), len), "Foobar");
  // A length past the end of the page.
  in.resize(in.size() - 3);
  values.Reset(PhysicalType::kByteArray, 0);
  EXPECT_TRUE(test::HasError(DecodeDeltaLengthByteArray(in.data(), in.size(), 4, &values),
                             StatusCode::kCorruption,
                             {"DELTA_LENGTH_BYTE_ARRAY: value length 6 runs past the end"}));

  // DELTA_BYTE_ARRAY: "axis", "axle", "babble" = prefixes 0, 2, 0 and suffixes "axis", "le",
  // "babble". Prefix lengths: first 0, deltas 2, -2 (min -2, relative 4, 0: bit width 3).
  std::vector<uint8_t> dba = B({0x80, 0x01, 0x04, 0x03, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x04,
                                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                // suffix lengths 4, 2, 6: first 4, deltas -2, 4 (min -2,
                                // relative 0, 6: bit width 3)
                                0x80, 0x01, 0x04, 0x03, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x30,
                                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00});
  std::string suffixes = "axislebabble";
  dba.insert(dba.end(), suffixes.begin(), suffixes.end());
  values.Reset(PhysicalType::kByteArray, 0);
  ASSERT_OK(DecodeDeltaByteArray(dba.data(), dba.size(), 3, &values));
  p = values.BytesAt(1, &len);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p), len), "axle");
  p = values.BytesAt(2, &len);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(p), len), "babble");
}

TEST(ByteStreamSplitDecoderTest, InterleavesStreams) {
  float f[3] = {1.5f, -2.25f, 1e30f};
  uint8_t raw[12], split[12];
  std::memcpy(raw, f, 12);
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 4; ++k) split[k * 3 + i] = raw[i * 4 + k];
  }
  ColumnValues values;
  values.Reset(PhysicalType::kFloat, 0);
  ASSERT_OK(DecodeByteStreamSplit(split, 12, 3, &values));
  EXPECT_EQ(std::memcmp(values.data(), raw, 12), 0);
  values.Reset(PhysicalType::kFloat, 0);
  EXPECT_TRUE(test::HasError(DecodeByteStreamSplit(split, 11, 3, &values), StatusCode::kCorruption,
                             {"BYTE_STREAM_SPLIT: 3 values of 4 bytes need more than 11 bytes"}));
}

TEST(DictionaryDecoderTest, GathersAndRejectsIndexesOutOfRange) {
  // Dictionary of three int32 values; indices with bit width 2: a bit-packed group 2, 0, 1, 2.
  int32_t dict[3] = {10, 20, 30};
  DictionaryDecoder d;
  ASSERT_OK(
      d.SetDictionary(PhysicalType::kInt32, 0, reinterpret_cast<const uint8_t*>(dict), 12, 3));
  std::vector<uint8_t> page = B({0x02, 0x03, 0x92, 0x00});
  ColumnValues values;
  values.Reset(PhysicalType::kInt32, 0);
  ASSERT_OK(d.Decode(page.data(), page.size(), 4, &values));
  const int32_t* v = reinterpret_cast<const int32_t*>(values.data());
  EXPECT_EQ(std::vector<int32_t>(v, v + 4), (std::vector<int32_t>{30, 10, 20, 30}));
  // Index 3 (bit-packed 3, 3, ...) does not exist.
  std::vector<uint8_t> bad = B({0x02, 0x03, 0xFF, 0x00});
  EXPECT_TRUE(test::HasError(d.Decode(bad.data(), bad.size(), 4, &values), StatusCode::kCorruption,
                             {"dictionary index 3 out of range"}));
  // A page without a dictionary.
  DictionaryDecoder empty;
  EXPECT_TRUE(test::HasError(empty.Decode(page.data(), page.size(), 4, &values),
                             StatusCode::kCorruption,
                             {"dictionary-encoded page without a dictionary page"}));
}

TEST(DictionaryDecoderTest, GathersByteArraysOfEveryLengthAroundTheWholeWordCopy) {
  // Values up to kShortCopy bytes are copied as whole words (CopyShort): lengths 0 to 40
  // (around and past the word), gathered twice into one ColumnValues, must come out exact.
  constexpr int kEntries = 41;
  std::vector<std::string> entries;
  std::vector<uint8_t> plain;
  for (int i = 0; i < kEntries; ++i) {
    std::string entry;
    for (int j = 0; j < i; ++j) entry.push_back(static_cast<char>('a' + (i + j) % 26));
    for (int shift = 0; shift < 32; shift += 8) plain.push_back(static_cast<uint8_t>(i >> shift));
    plain.insert(plain.end(), entry.begin(), entry.end());
    entries.push_back(std::move(entry));
  }
  DictionaryDecoder d;
  ASSERT_OK(d.SetDictionary(PhysicalType::kByteArray, 0, plain.data(), plain.size(), kEntries));
  // 80 indices bit-packed at width 6: ten groups of eight.
  constexpr int kCount = 80;
  constexpr int kWidth = 6;
  std::vector<uint32_t> indices;
  for (int i = 0; i < kCount; ++i) indices.push_back(static_cast<uint32_t>(i * 7 % kEntries));
  std::vector<uint8_t> page = {kWidth, static_cast<uint8_t>((kCount / 8) << 1 | 1)};
  std::vector<uint8_t> packed(kCount * kWidth / 8, 0);
  for (int i = 0; i < kCount; ++i) {
    for (int b = 0; b < kWidth; ++b) {
      if ((indices[static_cast<size_t>(i)] >> b & 1) != 0) {
        packed[static_cast<size_t>((i * kWidth + b) / 8)] |=
            static_cast<uint8_t>(1 << ((i * kWidth + b) % 8));
      }
    }
  }
  page.insert(page.end(), packed.begin(), packed.end());
  ColumnValues values;
  values.Reset(PhysicalType::kByteArray, 0);
  ASSERT_OK(d.Decode(page.data(), page.size(), kCount, &values));
  ASSERT_OK(d.Decode(page.data(), page.size(), kCount, &values));
  ASSERT_EQ(values.count(), 2 * kCount);
  std::string expected;
  for (int round = 0; round < 2; ++round) {
    for (uint32_t index : indices) expected += entries[index];
  }
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(values.data()), values.data_size()),
            expected);
  int32_t end = 0;
  for (int i = 0; i < 2 * kCount; ++i) {
    end += static_cast<int32_t>(entries[indices[static_cast<size_t>(i % kCount)]].size());
    ASSERT_EQ(values.offsets()[i + 1], end) << "value " << i;
  }
}

// Values of up to kShortCopy bytes are copied as whole words where the page has that much left
// (CopyShort): lengths 0 to 40 and back, the shortest at the end of a page allocated to its exact
// size (a read past it fails under ASan), decoded as two pages into one ColumnValues.
TEST(PlainDecoderTest, DecodesByteArraysOfEveryLengthToThePageEnd) {
  std::vector<std::string> strings;
  for (int i = 0; i <= 40; ++i)
    strings.push_back(std::string(static_cast<size_t>(i), 'a' + i % 26));
  for (int i = 40; i >= 0; --i) {
    std::string s;
    for (int j = 0; j < i; ++j) s.push_back(static_cast<char>('A' + (i + j) % 26));
    strings.push_back(std::move(s));
  }
  std::vector<uint8_t> plain;
  for (const std::string& s : strings) {
    for (int shift = 0; shift < 32; shift += 8) {
      plain.push_back(static_cast<uint8_t>(s.size() >> shift));
    }
    plain.insert(plain.end(), s.begin(), s.end());
  }
  auto page = std::make_unique<uint8_t[]>(plain.size());
  std::memcpy(page.get(), plain.data(), plain.size());
  const auto count = static_cast<int64_t>(strings.size());
  ColumnValues values;
  values.Reset(PhysicalType::kByteArray, 0);
  for (int round = 0; round < 2; ++round) {
    size_t used = 0;
    ASSERT_OK(DecodePlain(page.get(), plain.size(), count, &values, &used));
    EXPECT_EQ(used, plain.size());
  }
  ASSERT_EQ(values.count(), 2 * count);
  for (int64_t i = 0; i < 2 * count; ++i) {
    int32_t len;
    const uint8_t* p = values.BytesAt(i, &len);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(len)),
              strings[static_cast<size_t>(i % count)])
        << "value " << i;
  }
}

TEST(PlainDecoderTest, RejectsLyingCountsAndLengths) {
  std::vector<uint8_t> in = B({0x03, 0x00, 0x00, 0x00, 'a', 'b', 'c', 0xFF, 0xFF, 0xFF, 0x7F});
  ColumnValues values;
  values.Reset(PhysicalType::kByteArray, 0);
  size_t used;
  EXPECT_TRUE(
      test::HasError(DecodePlain(in.data(), in.size(), 2, &values, &used), StatusCode::kCorruption,
                     {"PLAIN byte array of 2147483647 bytes runs past the end of the page"}));
  // A page claiming more values than it holds, its one value longer than the page less a
  // length per claimed value: written before the second length is found missing.
  std::vector<uint8_t> long_value(300, 'x');
  long_value[0] = 296 & 0xFF;
  long_value[1] = 296 >> 8;
  long_value[2] = long_value[3] = 0;
  values.Reset(PhysicalType::kByteArray, 0);
  EXPECT_TRUE(test::HasError(DecodePlain(long_value.data(), long_value.size(), 70, &values, &used),
                             StatusCode::kCorruption,
                             {"PLAIN byte array length runs past the end"}));
  values.Reset(PhysicalType::kByteArray, 0);
  EXPECT_TRUE(test::HasError(DecodePlain(in.data(), in.size(), 1 << 30, &values, &used),
                             StatusCode::kCorruption,
                             {"PLAIN byte arrays: 1073741824 values cannot fit in 11 bytes"}));
  values.Reset(PhysicalType::kInt64, 0);
  EXPECT_TRUE(test::HasError(DecodePlain(in.data(), in.size(), 2, &values, &used),
                             StatusCode::kCorruption,
                             {"PLAIN values run past the end of the page (2 values of 8 bytes, "
                              "11 bytes left)"}));
  values.Reset(PhysicalType::kBoolean, 0);
  ASSERT_OK(DecodePlain(in.data(), 1, 8, &values, &used));
  EXPECT_EQ(values.data()[0], 1);
  EXPECT_EQ(values.data()[1], 1);
  EXPECT_EQ(values.data()[2], 0);
}

}  // namespace
}  // namespace sluice::parquet
