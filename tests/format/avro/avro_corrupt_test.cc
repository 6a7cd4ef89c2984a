// Damaged Avro files: every failure is a Status naming the file and the fault; never a crash, an
// endless loop or a huge allocation. The messages are pinned.
#include <gtest/gtest.h>

#include <set>

#include "avro_test_helpers.h"
#include "sluice/format/avro/avro_binary.h"
#include "test_util.h"

namespace sluice::test {
namespace {

const char* kSchema = R"({"type":"record","name":"r","fields":[{"name":"id","type":"long"},)"
                      R"({"name":"s","type":["null","string"]}]})";

// Record (id, s) of kSchema.
std::string Record(int64_t id, const char* s) {
  return Long(id) + (s == nullptr ? Long(0) : Long(1) + Bytes(s));
}

DataTypePtr ReadType() {
  DataField id{0, "id", DataType::BigInt(false), {}, {}};
  DataField s{1, "s", DataType::String(), {}, {}};
  return DataType::Row({id, s}, false);
}

Status ReadAll(const std::string& content) {
  return ReadRows(MemFile(content, "bad.avro"), ReadType()).status();
}

void ExpectError(const std::string& content, StatusCode code, const std::string& message) {
  Status st = ReadAll(content);
  ASSERT_TRUE(HasError(st, code, {message})) << "expected: " << message;
  EXPECT_EQ(st.message(), message);
}

std::string ValidFile() {
  return Header(kSchema, "null") + Block(2, Record(1, "a") + Record(-2, nullptr)) +
         Block(1, Record(3, "ccc"));
}

TEST(AvroCorruptTest, ValidFileReads) {
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRows(MemFile(ValidFile()), ReadType()));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1], Value::Row({Value::Int64(-2), Value::Null()}));
}

TEST(AvroCorruptTest, WrongMagic) {
  std::string f = ValidFile();
  f[3] = 2;
  ExpectError(f, StatusCode::kCorruption,
              "bad.avro: not an Avro file: magic is 4f626a02, expected 4f626a01 (Obj\\x01)");
  ExpectError("Ob", StatusCode::kCorruption,
              "bad.avro: not an Avro file: 2 bytes, shorter than the magic");
}

TEST(AvroCorruptTest, UnknownAndUnsupportedCodecs) {
  ExpectError(Header(kSchema, "lzma") + Block(1, Record(1, "a")), StatusCode::kNotSupported,
              "bad.avro: unknown Avro codec 'lzma'");
  ExpectError(Header(kSchema, "xz"), StatusCode::kNotSupported,
              "bad.avro: Avro codec 'xz' is not supported");
}

TEST(AvroCorruptTest, SchemaGarbage) {
  ExpectError(Header("{\"type\":", "null"), StatusCode::kInvalidArgument,
              "bad.avro: avro.schema: Avro schema is not valid JSON");
  ExpectError(
      Header(R"({"type":"record","name":"r","fields":[{"name":"x","type":"nope"}]})", "null"),
      StatusCode::kInvalidArgument,
      "bad.avro: avro.schema: field r.x: Avro schema refers to unknown (or recursive) "
      "type \"nope\"");
  ExpectError(Header(R"({"type":"record","name":"r","fields":[{"name":"x","type":"r"}]})", "null"),
              StatusCode::kInvalidArgument,
              "bad.avro: avro.schema: field r.x: Avro schema refers to unknown (or recursive) "
              "type \"r\"");
  ExpectError(Header("42", "null"), StatusCode::kInvalidArgument,
              "bad.avro: avro.schema: Avro schema must be a string, array or object, got 42");
  std::string no_schema =
      std::string("Obj\x01", 4) + Long(1) + Bytes("avro.codec") + Bytes("null") + Long(0) + kSync;
  ExpectError(no_schema, StatusCode::kCorruption, "bad.avro: Avro header has no avro.schema");
}

TEST(AvroCorruptTest, SyncMarkerMismatch) {
  std::string f = ValidFile();
  f[f.size() - 1] ^= 0x01;
  EXPECT_TRUE(HasError(ReadAll(f), StatusCode::kCorruption,
                       {"bad.avro: block 1 at offset ",
                        ": sync marker mismatch (found 30313233343536373839616263646567, header "
                        "has 30313233343536373839616263646566)"}));
}

TEST(AvroCorruptTest, BlockCountAndSizeLies) {
  std::string header = Header(kSchema, "null");
  std::string payload = Record(1, "a");
  // More records than bytes.
  ExpectError(header + Block(1000, payload), StatusCode::kCorruption,
              "bad.avro: block 0 at offset " + std::to_string(header.size()) +
                  ": claims 1000 records but holds only 4 bytes");
  // Fewer records than bytes.
  ExpectError(header + Block(1, payload + payload), StatusCode::kCorruption,
              "bad.avro: block 0 at offset " + std::to_string(header.size()) +
                  ": 4 bytes left after the last record");
  // A size past the end of the file.
  std::string lying = header + Long(1) + Long(1 << 30) + payload + kSync;
  ExpectError(lying, StatusCode::kCorruption,
              "bad.avro: block 0 at offset " + std::to_string(header.size()) + ": 1073741824 " +
                  "bytes and a sync marker run past the end of the file (" +
                  std::to_string(lying.size()) + " bytes)");
  ExpectError(header + Long(-1) + Long(3) + payload + kSync, StatusCode::kCorruption,
              "bad.avro: block 0 at offset " + std::to_string(header.size()) +
                  ": negative object count -1");
  // Two records claimed, one and a half present.
  ExpectError(header + Block(2, payload + Long(7)), StatusCode::kCorruption,
              "bad.avro: block 0 at offset " + std::to_string(header.size()) +
                  ": record 1: field s: value runs past the end of the block (or has a bad "
                  "varint)");
}

TEST(AvroCorruptTest, ValueLevelFaults) {
  std::string header = Header(kSchema, "null");
  std::string at = "bad.avro: block 0 at offset " + std::to_string(header.size()) + ": record 0: ";
  ExpectError(header + Block(1, Long(1) + Long(5)), StatusCode::kCorruption,
              at + "field s: union index 5 out of range [0, 2)");
  ExpectError(header + Block(1, Long(1) + Long(1) + Long(100) + "abc"), StatusCode::kCorruption,
              at + "field s: length 100 exceeds the 3 bytes left in the block");
  ExpectError(header + Block(1, Long(1) + Long(1) + Long(-4) + "abc"), StatusCode::kCorruption,
              at + "field s: negative length -4");
  ExpectError(header + Block(1, std::string(11, '\xff') + Long(0)), StatusCode::kCorruption,
              at + "field id: value runs past the end of the block (or has a bad varint)");
}

TEST(AvroCorruptTest, SnappyCrcMismatch) {
  std::string raw = Record(1, "a");
  Buffer compressed;
  SLUICE_ASSERT_OK(GetCodec(CompressionKind::kSnappy).Compress(raw, 0, &compressed));
  std::string payload = std::string(compressed.view()) + std::string("\0\0\0\0", 4);
  std::string header = Header(kSchema, "snappy");
  EXPECT_TRUE(HasError(ReadAll(header + Block(1, payload)), StatusCode::kCorruption,
                       {"bad.avro: block 0 at offset " + std::to_string(header.size()) +
                        ": snappy block CRC mismatch (stored 0, computed "}));
}

TEST(AvroCorruptTest, ArrayItemCountLies) {
  const char* schema =
      R"({"type":"record","name":"r","fields":[{"name":"a","type":{"type":"array","items":"long"}}]})";
  std::string header = Header(schema, "null");
  DataField a{0, "a", DataType::Array(DataType::BigInt(false), false), {}, {}};
  Status st =
      ReadRows(MemFile(header + Block(1, Long(int64_t{1} << 40) + Long(1) + Long(0)), "bad.avro"),
               DataType::Row({a}, false))
          .status();
  ASSERT_TRUE(HasError(st, StatusCode::kCorruption, {"items cannot fit"}));
  EXPECT_EQ(st.message(), "bad.avro: block 0 at offset " + std::to_string(header.size()) +
                              ": record 0: field a: 1099511627776 items cannot fit in the 2 bytes "
                              "left in the block");
}

// Truncating a real file anywhere, or flipping any byte, gives a Status or valid rows: never a
// crash (the sanitizers watch) or a hang.
TEST(AvroCorruptTest, TruncatedAtEveryOffsetAndFlippedBytes) {
  TempDir tmp;
  std::string path = tmp.path() + "/t.avro";
  std::vector<Value> rows;
  for (int i = 0; i < 50; ++i) {
    rows.push_back(Value::Row(
        {Value::Int64(i), i % 3 == 0 ? Value::Null() : Value::String("v" + std::to_string(i))}));
  }
  for (const char* codec : {"null", "zstd", "snappy", "deflate"}) {
    SCOPED_TRACE(codec);
    WriterOptions options;
    options.compression = codec;
    SLUICE_ASSERT_OK(WriteRows(path, ReadType(), rows, options).status());
    std::string good = ReadFileOrFail(path);
    SLUICE_ASSERT_OK_AND_ASSIGN(auto all, ReadRows(MemFile(good), ReadType()));
    ASSERT_EQ(all.size(), rows.size());
    // A file cut exactly after the header or after a block is a valid, shorter file.
    SLUICE_ASSERT_OK_AND_ASSIGN(auto container, AvroContainerReader::Open(MemFile(good)));
    std::set<size_t> boundaries;
    for (const AvroBlockInfo& b : container->blocks())
      boundaries.insert(static_cast<size_t>(b.offset));
    for (size_t len = 0; len < good.size(); ++len) {
      Status st = ReadAll(good.substr(0, len));
      if (boundaries.count(len) > 0) {
        EXPECT_OK(st);
        continue;
      }
      ASSERT_TRUE(HasError(st, StatusCode::kCorruption, {"bad.avro: "})) << "truncated to " << len;
      EXPECT_EQ(st.message().rfind("bad.avro: ", 0), 0u) << st.ToString();
    }
    int failures = 0;
    for (size_t pos = 0; pos < good.size(); ++pos) {
      std::string bad = good;
      bad[pos] = static_cast<char>(bad[pos] ^ 0x5a);
      Status st = ReadAll(bad);
      if (!st.ok()) {
        ++failures;
        EXPECT_EQ(st.message().rfind("bad.avro", 0), 0u) << st.ToString();
      }
    }
    EXPECT_GT(failures, 0);
  }
}

}  // namespace
}  // namespace sluice::test
