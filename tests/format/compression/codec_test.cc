#include "sluice/format/compression/codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/base/coding.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

std::string SampleData() {
  std::string s;
  for (int i = 0; i < 5000; ++i) s += "paimon-" + std::to_string(i % 97) + ";";
  return s;
}

class CodecRoundTrip : public ::testing::TestWithParam<CompressionKind> {};

TEST_P(CodecRoundTrip, CompressThenDecompress) {
  const Codec& codec = GetCodec(GetParam());
  for (const std::string& input : {std::string(), std::string("x"), SampleData()}) {
    Buffer compressed;
    ASSERT_OK(codec.Compress(input, 3, &compressed));
    Buffer out;
    Status st = codec.Decompress(compressed.view(), &out);
    ASSERT_OK(st);
    EXPECT_EQ(out.view(), input);
    std::string exact(input.size(), '\0');
    st = codec.DecompressExact(compressed.view(), reinterpret_cast<uint8_t*>(exact.data()),
                               exact.size());
    ASSERT_OK(st);
    EXPECT_EQ(exact, input);
  }
}

TEST_P(CodecRoundTrip, GarbageIsCorruptionNotACrash) {
  const Codec& codec = GetCodec(GetParam());
  std::string input = SampleData();
  Buffer compressed;
  ASSERT_OK(codec.Compress(input, 3, &compressed));
  // Truncate and flip bytes: every outcome must be a Status, and a success must not claim the
  // original length for truncated input.
  std::string truncated(compressed.view().substr(0, compressed.size() / 2));
  Buffer out;
  Status st = codec.Decompress(truncated, &out, input.size() * 2);
  if (GetParam() != CompressionKind::kNone) {
    // Every codec but `none` sees that half a stream is missing.
    EXPECT_TRUE(HasError(st, StatusCode::kCorruption));
  }
  std::string exact(input.size(), '\0');
  // Into a buffer of the original size, half the stream never fills it.
  EXPECT_TRUE(HasError(
      codec.DecompressExact(truncated, reinterpret_cast<uint8_t*>(exact.data()), exact.size()),
      StatusCode::kCorruption));
  std::string flipped(compressed.view());
  for (size_t i = 0; i < flipped.size(); i += 7) flipped[i] = static_cast<char>(~flipped[i]);
  // Flipped bytes may still decode (codecs without checksums), but never to the input, and a
  // failure is a Corruption.
  st = codec.Decompress(flipped, &out, input.size() * 2);
  if (st.ok()) {
    EXPECT_NE(out.view(), input);
  } else {
    EXPECT_TRUE(HasError(st, StatusCode::kCorruption));
  }
  st = codec.DecompressExact(flipped, reinterpret_cast<uint8_t*>(exact.data()), exact.size());
  if (st.ok()) {
    EXPECT_NE(exact, input);
  } else {
    EXPECT_TRUE(HasError(st, StatusCode::kCorruption));
  }
}

TEST_P(CodecRoundTrip, OutputLimitIsEnforced) {
  const Codec& codec = GetCodec(GetParam());
  std::string input = SampleData();
  Buffer compressed;
  ASSERT_OK(codec.Compress(input, 3, &compressed));
  Buffer out;
  EXPECT_TRUE(HasError(codec.Decompress(compressed.view(), &out, input.size() / 2),
                       StatusCode::kCorruption,
                       {"more than " + std::to_string(input.size() / 2) + " bytes"}));
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecRoundTrip,
                         ::testing::Values(CompressionKind::kNone, CompressionKind::kSnappy,
                                           CompressionKind::kGzip, CompressionKind::kDeflate,
                                           CompressionKind::kZlib, CompressionKind::kLz4Raw,
                                           CompressionKind::kLz4Hadoop, CompressionKind::kLz4Frame,
                                           CompressionKind::kZstd),
                         [](const auto& info) {
                           return std::string(CompressionKindName(info.param));
                         });

TEST(CodecNames, Parse) {
  EXPECT_EQ(*ParseCompressionKind("ZSTD"), CompressionKind::kZstd);
  EXPECT_EQ(*ParseCompressionKind("zstandard"), CompressionKind::kZstd);
  EXPECT_EQ(*ParseCompressionKind("uncompressed"), CompressionKind::kNone);
  EXPECT_TRUE(HasError(ParseCompressionKind("brotli9"), StatusCode::kInvalidArgument,
                       {"unknown compression codec 'brotli9'"}));
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

// Hadoop's Lz4Codec (Java's Parquet "lz4") cuts its input into blocks of at most 256 KiB less
// its reserved overhead; its decompressor cannot take a larger block, so Sluice cuts alike.
TEST(Lz4HadoopCodec, WritesBlocksHadoopCanRead) {
  std::string input;
  for (int i = 0; input.size() < 600000; ++i) input += std::to_string(i * 7919 % 100003) + ",";
  Buffer compressed;
  ASSERT_TRUE(GetCodec(CompressionKind::kLz4Hadoop).Compress(input, 1, &compressed).ok());
  std::vector<uint32_t> raw_sizes;
  size_t at = 0;
  while (at + 8 <= compressed.size()) {
    raw_sizes.push_back(DecodeFixed32BE(compressed.data() + at));
    at += 8 + DecodeFixed32BE(compressed.data() + at + 4);
  }
  EXPECT_EQ(at, compressed.size());
  const uint32_t max_block = 256 * 1024 - (256 * 1024 / 255 + 16);
  ASSERT_EQ(raw_sizes.size(), (input.size() + max_block - 1) / max_block);
  for (size_t i = 0; i + 1 < raw_sizes.size(); ++i) EXPECT_EQ(raw_sizes[i], max_block);
  Buffer back;
  ASSERT_TRUE(GetCodec(CompressionKind::kLz4Hadoop)
                  .Decompress(compressed.view(), &back, input.size())
                  .ok());
  EXPECT_EQ(back.view(), input);
}

}  // namespace
}  // namespace sluice
