// DeletionVector and ReadDeletionVector: Java's entry bytes, both variants, round trips, and
// corrupt input (wrong magic, bad CRC, lengths past the file, truncated bitmaps) as a Status.
#include "sluice/index/deletion_vector.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "sluice/base/coding.h"
#include "sluice/index/deletion_vector_index_file.h"
#include "sluice/index/deletion_vector_reader.h"
#include "test_util.h"

namespace sluice {
namespace {

std::string Hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

// The entry of format-spec-indexes.md 1.9 (pk_09_with_dv, written by Java): positions 0 and 1.
const std::string kJavaEntry =
    Hex("000000185E43F2D03A300000010000000000010010000000000001005"
        "0A75C34");

// Rewrites the CRC of an entry after its bytes were changed on purpose.
void FixCrc(std::string* entry) {
  const size_t length = entry->size() - 8;
  const uint32_t crc = static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(entry->data() + 4), static_cast<uInt>(length)));
  EncodeFixed32BE(reinterpret_cast<uint8_t*>(entry->data() + 4 + length), crc);
}

DeletionVector Make(DeletionVector::Kind kind, const std::vector<int64_t>& positions) {
  DeletionVector dv(kind);
  for (int64_t p : positions) EXPECT_OK(dv.Delete(p)) << p;
  return dv;
}

TEST(DeletionVectorTest, ReadsAndRewritesJavaEntry) {
  auto dv = DeletionVector::Deserialize(kJavaEntry);
  ASSERT_OK(dv);
  EXPECT_EQ(dv->kind(), DeletionVector::Kind::kBitmap32);
  EXPECT_EQ(dv->Cardinality(), 2);
  EXPECT_EQ(dv->ToSortedPositions(), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(dv->IsDeleted(0));
  EXPECT_TRUE(dv->IsDeleted(1));
  EXPECT_FALSE(dv->IsDeleted(2));
  EXPECT_FALSE(dv->IsDeleted(-1));
  EXPECT_FALSE(dv->IsDeleted(int64_t{1} << 32));
  EXPECT_EQ(dv->Serialize(), kJavaEntry);
  EXPECT_EQ(dv->ManifestLength(static_cast<int64_t>(kJavaEntry.size())), 24);
}

TEST(DeletionVectorTest, Bitmap32RoundTripWithEveryContainerKind) {
  std::vector<int64_t> positions = {3, 70000, 2147483647};
  for (int64_t p = 100000; p < 110000; ++p) positions.push_back(p);     // a run
  for (int64_t p = 200000; p < 265536; p += 3) positions.push_back(p);  // bitmap containers
  std::sort(positions.begin(), positions.end());
  DeletionVector dv = Make(DeletionVector::Kind::kBitmap32, positions);
  const std::string entry = dv.Serialize();
  EXPECT_EQ(DecodeFixed32BE(reinterpret_cast<const uint8_t*>(entry.data())), entry.size() - 8);
  EXPECT_EQ(entry.substr(4, 4), Hex("5E43F2D0"));
  auto back = DeletionVector::Deserialize(entry);
  ASSERT_OK(back);
  EXPECT_EQ(back->ToSortedPositions(), positions);
  EXPECT_TRUE(*back == dv);
  EXPECT_EQ(back->Serialize(), entry);
}

// The portable bitmap of a 32-bit entry with a valid framing around `bitmap`.
std::string Entry32(const std::string& bitmap) {
  std::string entry;
  PutFixed32BE(&entry, static_cast<uint32_t>(4 + bitmap.size()));
  entry += Hex("5E43F2D0") + bitmap;
  entry.append(4, '\0');
  FixCrc(&entry);
  return entry;
}

// Container kinds follow Java's runOptimize, not CRoaring's (which turns 3 consecutive values
// into a run).
TEST(DeletionVectorTest, ContainerKindsFollowJavaRunOptimize) {
  auto payload = [](DeletionVector dv) {
    const std::string entry = dv.Serialize();
    return entry.substr(8, entry.size() - 12);
  };
  // 3 consecutive values: array of 6 bytes vs run of 6 bytes: Java keeps the array.
  EXPECT_EQ(payload(Make(DeletionVector::Kind::kBitmap32, {0, 1, 2})),
            Hex("3A30000001000000000002001000000000000100"
                "0200"));
  // 4 consecutive values: a run (cookie 12347, one container, run flag, no offsets).
  EXPECT_EQ(payload(Make(DeletionVector::Kind::kBitmap32, {0, 1, 2, 3})),
            Hex("3B3000000100000300010000000300"));
  // A run container read from a file stays a run while it is no larger than the array...
  const std::string run3 =
      Hex("3B300000010000020001000000"
          "0200");
  auto kept = DeletionVector::Deserialize(Entry32(run3));
  ASSERT_OK(kept);
  EXPECT_EQ(kept->ToSortedPositions(), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(kept->Serialize(), Entry32(run3));
  // ... and becomes an array when it is larger: {0, 2} as two runs.
  auto converted =
      DeletionVector::Deserialize(Entry32(Hex("3B300000010000010002000000000002000000")));
  ASSERT_OK(converted);
  EXPECT_EQ(converted->Serialize(), Entry32(Hex("3A30000001000000000001001000000000000200")));
  // Bitmap containers, and runs across several containers with offsets.
  std::vector<int64_t> positions;
  for (int64_t p = 0; p < 65536; p += 2) positions.push_back(p);
  for (int64_t k = 1; k <= 4; ++k) {
    for (int64_t p = 0; p < 10; ++p) positions.push_back((k << 16) + p);
  }
  DeletionVector mixed = Make(DeletionVector::Kind::kBitmap32, positions);
  const std::string entry = mixed.Serialize();
  const auto* data = reinterpret_cast<const uint8_t*>(entry.data()) + 8;
  EXPECT_EQ(DecodeFixed32LE(data), 12347u | (4u << 16));  // 5 containers with runs
  EXPECT_EQ(data[4], 0x1E);                               // containers 1-4 are runs
  auto back = DeletionVector::Deserialize(entry);
  ASSERT_OK(back);
  EXPECT_EQ(back->ToSortedPositions(), positions);
  EXPECT_EQ(back->Serialize(), entry);
}

TEST(DeletionVectorTest, PositionsOutsideTheVariantAreRejected) {
  DeletionVector dv32(DeletionVector::Kind::kBitmap32);
  EXPECT_TRUE(test::HasError(dv32.Delete(-1), StatusCode::kInvalidArgument,
                             {"deletion vector: position -1 outside 0.."}));
  EXPECT_TRUE(test::HasError(dv32.Delete(int64_t{1} << 31), StatusCode::kInvalidArgument,
                             {"position 2147483648 outside 0.."}));
  DeletionVector dv64(DeletionVector::Kind::kBitmap64);
  EXPECT_OK(dv64.Delete(DeletionVector::kMaxBitmap64Position));
  EXPECT_TRUE(test::HasError(
      dv64.Delete(DeletionVector::kMaxBitmap64Position + 1), StatusCode::kInvalidArgument,
      {"position " + std::to_string(DeletionVector::kMaxBitmap64Position + 1) + " outside 0.."}));
  EXPECT_TRUE(dv32.IsEmpty());
  EXPECT_EQ(dv64.Cardinality(), 1);
}

TEST(DeletionVectorTest, Bitmap64IsWrittenDenseLittleEndian) {
  const int64_t high = int64_t{2} << 32;
  DeletionVector dv = Make(DeletionVector::Kind::kBitmap64, {5, 9, high + 7});
  const std::string entry = dv.Serialize();
  const auto* data = reinterpret_cast<const uint8_t*>(entry.data());
  EXPECT_EQ(entry.substr(4, 4), Hex("D1D33964"));
  // Keys 0, 1 (empty) and 2, each an int32 key and a portable bitmap.
  EXPECT_EQ(DecodeFixed64LE(data + 8), 3u);
  EXPECT_EQ(DecodeFixed32LE(data + 16), 0u);
  EXPECT_EQ(dv.ManifestLength(static_cast<int64_t>(entry.size())),
            static_cast<int64_t>(entry.size()));
  auto back = DeletionVector::Deserialize(entry);
  ASSERT_OK(back);
  EXPECT_EQ(back->kind(), DeletionVector::Kind::kBitmap64);
  EXPECT_EQ(back->ToSortedPositions(), (std::vector<int64_t>{5, 9, high + 7}));
  EXPECT_TRUE(back->IsDeleted(high + 7));
  EXPECT_FALSE(back->IsDeleted((int64_t{1} << 32) + 7));
  EXPECT_EQ(back->Serialize(), entry);
  // The empty 64-bit vector: a count of zero.
  DeletionVector empty(DeletionVector::Kind::kBitmap64);
  const std::string empty_entry = empty.Serialize();
  EXPECT_EQ(empty_entry.size(), 4u + 4 + 8 + 4);
  ASSERT_OK(DeletionVector::Deserialize(empty_entry));
}

// A 64-bit entry with only the given (key, 32-bit entry payload) pairs, as another writer may.
std::string Sparse64Entry(const std::vector<std::pair<int32_t, std::string>>& bitmaps) {
  std::string body(4, '\0');
  EncodeFixed32LE(reinterpret_cast<uint8_t*>(body.data()), DeletionVector::kBitmap64Magic);
  PutFixed64LE(&body, bitmaps.size());
  for (const auto& [key, bitmap] : bitmaps) {
    PutFixed32LE(&body, static_cast<uint32_t>(key));
    body += bitmap;
  }
  std::string entry;
  PutFixed32BE(&entry, static_cast<uint32_t>(body.size()));
  entry += body;
  entry.append(4, '\0');
  FixCrc(&entry);
  return entry;
}

// The portable bitmap inside a 32-bit entry.
std::string PortableBitmap(const std::vector<int64_t>& positions) {
  std::string entry = Make(DeletionVector::Kind::kBitmap32, positions).Serialize();
  return entry.substr(8, entry.size() - 12);
}

TEST(DeletionVectorTest, Bitmap64AcceptsSparseKeysAndRejectsDisorder) {
  auto sparse = DeletionVector::Deserialize(Sparse64Entry({{3, PortableBitmap({1, 2})}}));
  ASSERT_OK(sparse);
  EXPECT_EQ(sparse->ToSortedPositions(),
            (std::vector<int64_t>{(int64_t{3} << 32) + 1, (int64_t{3} << 32) + 2}));
  const std::string bitmap = PortableBitmap({1});
  for (const auto& bad :
       {Sparse64Entry({{2, bitmap}, {1, bitmap}}), Sparse64Entry({{1, bitmap}, {1, bitmap}}),
        Sparse64Entry({{-1, bitmap}}), Sparse64Entry({{INT32_MAX, bitmap}})}) {
    EXPECT_TRUE(test::HasError(DeletionVector::Deserialize(bad), StatusCode::kCorruption,
                               {"deletion vector: ", "key"}));
  }
}

void ExpectCorrupt(const std::string& entry, const std::string& words) {
  EXPECT_TRUE(test::HasError(DeletionVector::Deserialize(entry), StatusCode::kCorruption,
                             {"deletion vector: ", words}));
}

TEST(DeletionVectorTest, CorruptEntriesAreErrors) {
  std::string bad_magic = kJavaEntry;
  bad_magic[5] = 0x44;
  ExpectCorrupt(bad_magic, "magic");
  std::string bad_crc = kJavaEntry;
  bad_crc.back() ^= 1;
  ExpectCorrupt(bad_crc, "CRC");
  std::string flipped = kJavaEntry;
  flipped[20] ^= 0x10;
  ExpectCorrupt(flipped, "CRC");
  ExpectCorrupt(kJavaEntry.substr(0, kJavaEntry.size() - 1), "length field");
  ExpectCorrupt(kJavaEntry.substr(0, 5), "shorter");
  // A bitmap cut short, with the length field and CRC made consistent again.
  std::string truncated = kJavaEntry.substr(0, kJavaEntry.size() - 6) + std::string(4, '\0');
  EncodeFixed32BE(reinterpret_cast<uint8_t*>(truncated.data()),
                  static_cast<uint32_t>(truncated.size() - 8));
  FixCrc(&truncated);
  ExpectCorrupt(truncated, "roaring bitmap");
  // Bytes after the bitmap inside the entry.
  std::string padded = kJavaEntry.substr(0, kJavaEntry.size() - 4) + std::string(6, '\0');
  EncodeFixed32BE(reinterpret_cast<uint8_t*>(padded.data()),
                  static_cast<uint32_t>(padded.size() - 8));
  FixCrc(&padded);
  ExpectCorrupt(padded, "after the bitmap");
}

// A bitmap container whose serialized cardinality is not its number of values.
TEST(DeletionVectorTest, BitmapContainerCardinalityLieIsCorrupt) {
  std::vector<int64_t> positions;
  for (int64_t p = 0; p < 65536; p += 3) positions.push_back(p);
  std::string entry = Make(DeletionVector::Kind::kBitmap32, positions).Serialize();
  // Payload: cookie 12346, one container, then key (2 bytes) and cardinality - 1 (2 bytes).
  ASSERT_EQ(entry.substr(8, 4), Hex("3A300000"));
  auto* card = reinterpret_cast<uint8_t*>(entry.data() + 8 + 8 + 2);
  ASSERT_EQ(DecodeFixed16LE(card), positions.size() - 1);
  EncodeFixed16LE(card, 30000);
  FixCrc(&entry);
  ExpectCorrupt(entry, "cardinality");
}

// A run that crosses out of its container's 16-bit range: 65535 and 65536 under key 0.
TEST(DeletionVectorTest, RunPastItsContainerIsCorrupt) {
  ExpectCorrupt(Entry32(Hex("3B30000001000001000100FFFF0100")), "roaring bitmap");
}

// Every truncation and single-byte changes of bitmaps with array, run and bitmap containers (CRC
// fixed, so the parser sees them) yield a Status or a vector that reads, re-serializes and reads
// back the same; never a crash.
TEST(DeletionVectorTest, GarbledBitmapsNeverCrash) {
  std::vector<int64_t> positions = {1, 2, 3, 70000};
  for (int64_t p = 1000; p < 1500; ++p) positions.push_back(p);
  for (int64_t p = 3 << 16; p < (4 << 16); p += 13) positions.push_back(p);
  for (auto kind : {DeletionVector::Kind::kBitmap32, DeletionVector::Kind::kBitmap64}) {
    DeletionVector dv = Make(kind, positions);
    const std::string entry = dv.Serialize();
    int errors = 0, parsed = 0;
    for (size_t i = 8; i + 4 < entry.size(); i += (i < 160 ? 1 : 61)) {
      for (uint8_t delta : {0x01, 0x80, 0xFF}) {
        std::string garbled = entry;
        garbled[i] = static_cast<char>(garbled[i] ^ delta);
        FixCrc(&garbled);
        auto result = DeletionVector::Deserialize(garbled);
        if (!result.ok()) {
          ++errors;
          continue;
        }
        ++parsed;
        const std::vector<int64_t> read = result->ToSortedPositions();
        EXPECT_EQ(static_cast<int64_t>(read.size()), result->Cardinality());
        // A garbled 64-bit key can be large, and Java writes every key up to the largest.
        if (!read.empty() && read.back() > (int64_t{64} << 32)) continue;
        auto again = DeletionVector::Deserialize(result->Serialize());
        ASSERT_OK(again);
        EXPECT_EQ(again->ToSortedPositions(), read) << "byte " << i;
      }
      std::string cut = entry.substr(0, i) + std::string(4, '\0');
      EncodeFixed32BE(reinterpret_cast<uint8_t*>(cut.data()),
                      static_cast<uint32_t>(cut.size() - 8));
      FixCrc(&cut);
      EXPECT_TRUE(test::HasError(DeletionVector::Deserialize(cut), StatusCode::kCorruption,
                                 {"deletion vector: "}))
          << "cut at " << i;
    }
    EXPECT_GT(errors, 0);
    EXPECT_GT(parsed, 0);
  }
}

// An index file of the given vectors (BuildDeletionVectorIndexFile), and the DeletionFiles its
// manifest ranges give.
struct IndexFile {
  std::string content;
  std::vector<DeletionFile> files;

  IndexFile(std::vector<DeletionVector> vectors, const std::string& path) {
    std::vector<std::pair<std::string, DeletionVector*>> named;
    for (size_t i = 0; i < vectors.size(); ++i) {
      named.emplace_back("data-" + std::to_string(i) + ".parquet", &vectors[i]);
    }
    auto built = BuildDeletionVectorIndexFile(named);
    EXPECT_OK(built);
    if (!built.ok()) return;
    content = built->content;
    for (const auto& range : built->ranges) {
      files.push_back(DeletionFile{path, range.offset, range.length, range.cardinality});
    }
  }
};

TEST(DeletionVectorReaderTest, ReadsBothVariantsFromOneFile) {
  test::TempDir dir;
  const std::string path = dir.path() + "/index-0";
  std::vector<DeletionVector> vectors;
  vectors.push_back(Make(DeletionVector::Kind::kBitmap32, {0, 7}));
  vectors.push_back(Make(DeletionVector::Kind::kBitmap64, {4, (int64_t{1} << 32) + 1}));
  IndexFile index(std::move(vectors), path);
  ASSERT_EQ(index.files.size(), 2u);
  EXPECT_EQ(index.content[0], 1);
  EXPECT_EQ(index.files[0].offset, 1);
  // 32-bit: the manifest length excludes the length field and CRC; 64-bit: the whole entry.
  EXPECT_EQ(index.files[1].offset, 1 + index.files[0].length + 8);
  EXPECT_EQ(index.files[1].offset + index.files[1].length,
            static_cast<int64_t>(index.content.size()));
  auto io = LocalFileIO();
  ASSERT_OK(io->WriteFileAtomic(path, index.content, true));
  auto first = ReadDeletionVector(*io, index.files[0]);
  ASSERT_OK(first);
  EXPECT_EQ(first->ToSortedPositions(), (std::vector<int64_t>{0, 7}));
  auto second = ReadDeletionVector(*io, index.files[1]);
  ASSERT_OK(second);
  EXPECT_EQ(second->kind(), DeletionVector::Kind::kBitmap64);
  EXPECT_EQ(second->Cardinality(), 2);
  // Older manifests record no cardinality.
  DeletionFile no_cardinality = index.files[1];
  no_cardinality.cardinality.reset();
  EXPECT_OK(ReadDeletionVector(*io, no_cardinality));
}

TEST(DeletionVectorReaderTest, BadRangesAndFilesNameTheIndexFileAndOffset) {
  test::TempDir dir;
  const std::string path = dir.path() + "/index-0";
  std::vector<DeletionVector> vectors;
  vectors.push_back(Make(DeletionVector::Kind::kBitmap32, {0, 7}));
  IndexFile index(std::move(vectors), path);
  ASSERT_EQ(index.files.size(), 1u);
  auto io = LocalFileIO();
  ASSERT_OK(io->WriteFileAtomic(path, index.content, true));
  const DeletionFile good = index.files[0];

  auto expect_error = [&](const DeletionFile& file, const std::string& words,
                          StatusCode code = StatusCode::kCorruption) {
    EXPECT_TRUE(test::HasError(ReadDeletionVector(*io, file), code,
                               {file.path, "offset " + std::to_string(file.offset), words}));
  };
  DeletionFile wrong_length = good;
  wrong_length.length += 1;
  expect_error(wrong_length, "manifest length");
  DeletionFile past_end = good;
  past_end.offset = static_cast<int64_t>(index.content.size()) - 3;
  expect_error(past_end, "does not fit");
  DeletionFile negative = good;
  negative.offset = -5;
  expect_error(negative, "does not fit");
  DeletionFile wrong_cardinality = good;
  wrong_cardinality.cardinality = 3;
  expect_error(wrong_cardinality, "manifest says 3");
  DeletionFile missing = good;
  missing.path = dir.path() + "/absent";
  expect_error(missing, "No such file", StatusCode::kNotFound);

  // The length field claims more than the file holds.
  std::string long_entry = index.content;
  EncodeFixed32BE(reinterpret_cast<uint8_t*>(long_entry.data() + 1), 1000);
  const std::string long_path = dir.path() + "/index-long";
  ASSERT_OK(io->WriteFileAtomic(long_path, long_entry, true));
  DeletionFile runs_past = good;
  runs_past.path = long_path;
  runs_past.length = 1000;
  expect_error(runs_past, "past the end");

  // Version byte other than 1, and an empty file.
  std::string v2 = index.content;
  v2[0] = 2;
  const std::string v2_path = dir.path() + "/index-v2";
  ASSERT_OK(io->WriteFileAtomic(v2_path, v2, true));
  DeletionFile wrong_version = good;
  wrong_version.path = v2_path;
  expect_error(wrong_version, "version 2");
  const std::string empty_path = dir.path() + "/index-empty";
  ASSERT_OK(io->WriteFileAtomic(empty_path, "", true));
  DeletionFile empty = good;
  empty.path = empty_path;
  expect_error(empty, "empty index file");

  // A garbled magic inside the file.
  std::string bad_magic = index.content;
  bad_magic[6] ^= 0x40;
  const std::string bad_magic_path = dir.path() + "/index-magic";
  ASSERT_OK(io->WriteFileAtomic(bad_magic_path, bad_magic, true));
  DeletionFile magic = good;
  magic.path = bad_magic_path;
  expect_error(magic, "magic");
}

}  // namespace
}  // namespace sluice
