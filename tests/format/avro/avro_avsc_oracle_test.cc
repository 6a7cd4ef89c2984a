// avsc (an independent JavaScript Avro implementation, tests/oracle/node_modules) decodes files
// our writer produced and corpus manifests our reader read; both sides must agree value by value.
// Node 20 cannot decompress zstandard without an extra package, so zstandard files are handed to
// avsc transcoded to the null codec (blocks decompressed, bytes otherwise unchanged).
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "avro_test_helpers.h"
#include "sluice/format/avro/avro_binary.h"
#include "sluice/format/avro/avro_record_encoder.h"
#include "test_util.h"

namespace sluice::test {
namespace {

using Json = nlohmann::json;

std::string Hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// A value as avsc_decode.js prints it (see the conventions at the top of the script).
Json ToAvsc(const Value& v, const DataType& t) {
  if (v.is_null()) return nullptr;
  switch (t.root()) {
    case TypeRoot::kBoolean:
      return v.boolean();
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return v.AsInt64();
    case TypeRoot::kBigInt:
      return std::to_string(v.int64());
    case TypeRoot::kFloat:
      return static_cast<double>(v.float32());
    case TypeRoot::kDouble:
      return v.float64();
    case TypeRoot::kDecimal: {
      Buffer b;
      PutDecimalBytes(v.decimal().unscaled, &b);
      AvroCursor in(b.data(), b.data() + b.size());
      std::string_view bytes;
      in.ReadBytes(&bytes);
      return Hex(bytes);
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return v.bytes();
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return std::to_string(t.precision() <= 3 ? v.timestamp().millisecond
                                               : v.timestamp().ToEpochMicros());
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      Json a = Json::array();
      for (const Value& e : v.list()) a.push_back(ToAvsc(e, *t.element()));
      return a;
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      bool multiset = t.root() == TypeRoot::kMultiset;
      const DataType& key = multiset ? *t.element() : *t.key();
      DataTypePtr value = multiset ? DataType::Int() : t.value();
      if (key.IsString()) {
        Json o = Json::object();
        for (const auto& [k, val] : v.pairs()) o[k.bytes()] = ToAvsc(val, *value);
        return o;
      }
      Json a = Json::array();
      for (const auto& [k, val] : v.pairs()) {
        a.push_back({{"key", ToAvsc(k, key)}, {"value", ToAvsc(val, *value)}});
      }
      return a;
    }
    case TypeRoot::kRow: {
      Json o = Json::object();
      for (size_t i = 0; i < t.fields().size(); ++i) {
        o[t.fields()[i].name] = ToAvsc(v.list()[i], *t.fields()[i].type);
      }
      return o;
    }
    default:
      return Hex(v.bytes());
  }
}

Json ToAvscRows(const std::vector<Value>& rows, const DataType& row_type) {
  Json a = Json::array();
  for (const Value& r : rows) a.push_back(ToAvsc(r, row_type));
  return a;
}

// Runs avsc_decode.js on `files`; one parsed JSON array per file. Fails (not skips) the test
// when node or avsc is missing: scripts/setup.sh installs both.
std::vector<Json> AvscDecode(const std::vector<std::string>& files) {
  std::string cmd = "node '" + SourceDir() + "/tests/format/avro/avsc_decode.js'";
  for (const std::string& f : files) cmd += " '" + f + "'";
  cmd += " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    ADD_FAILURE() << "cannot run " << cmd;
    return {};
  }
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  if (rc != 0) {
    ADD_FAILURE() << "avsc_decode.js failed (is node installed and tests/oracle/node_modules "
                     "set up by scripts/setup.sh?): exit "
                  << rc << "\n"
                  << out;
    return {};
  }
  std::vector<Json> result;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    result.push_back(Json::parse(out.substr(start, end - start)));
    start = end + 1;
  }
  return result;
}

// The same container with every block decompressed and the codec set to "null".
std::string TranscodeToNullCodec(const std::string& path) {
  auto file = LocalFileIO()->OpenForRead(path);
  EXPECT_OK(file);
  auto container =
      AvroContainerReader::Open(std::shared_ptr<RandomAccessFile>(std::move(file).value()));
  EXPECT_OK(container);
  AvroContainerReader& c = **container;
  Buffer out;
  out.Append(kAvroMagic, 4);
  PutAvroLong(&out, 2);
  PutAvroBytes(&out, "avro.schema");
  PutAvroBytes(&out, c.schema_json());
  PutAvroBytes(&out, "avro.codec");
  PutAvroBytes(&out, "null");
  PutAvroLong(&out, 0);
  out.Append(c.sync_marker());
  for (size_t i = 0; i < c.blocks().size(); ++i) {
    auto data = c.ReadBlock(i);
    EXPECT_OK(data);
    PutAvroLong(&out, c.blocks()[i].count);
    PutAvroBytes(&out, *data);
    out.Append(c.sync_marker());
  }
  return std::string(out.view());
}

DataField F(int id, std::string name, DataTypePtr type) {
  DataField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}

TEST(AvroAvscOracleTest, AvscDecodesWhatWeWrite) {
  DataTypePtr inner = DataType::Row(
      {F(10, "c", DataType::String()), F(11, "d", DataType::Array(DataType::Double()))});
  DataTypePtr type = DataType::Row(
      {F(0, "b", DataType::Boolean()), F(1, "i8", DataType::TinyInt()),
       F(2, "i32", DataType::Int(false)), F(3, "i64", DataType::BigInt()),
       F(4, "f", DataType::Float()), F(5, "d", DataType::Double()),
       F(6, "dec", DataType::Decimal(9, 3)), F(7, "dec38", DataType::Decimal(38, 0)),
       F(8, "s", DataType::String()), F(9, "bin", DataType::Bytes()),
       F(12, "date", DataType::Date()), F(13, "time", DataType::Time(3)),
       F(14, "ts3", DataType::Timestamp(3)), F(15, "ts6", DataType::TimestampLtz(6)),
       F(16, "arr", DataType::Array(DataType::BigInt())),
       F(17, "smap", DataType::Map(DataType::String(false), DataType::Int())),
       F(18, "imap", DataType::Map(DataType::Int(false), inner)),
       F(19, "mset", DataType::Multiset(DataType::String(false))), F(20, "row", inner)},
      false);
  int128_t big = 1;
  for (int k = 0; k < 37; ++k) big *= 10;
  std::vector<Value> rows;
  for (int i = 0; i < 300; ++i) {
    bool nulls = i % 7 == 3;
    auto maybe = [&](Value v) { return nulls ? Value::Null() : v; };
    Value in = Value::Row({Value::String("c" + std::to_string(i)),
                           Value::Array({Value::Double(i * 0.25), Value::Null()})});
    rows.push_back(Value::Row({
        maybe(Value::Boolean(i % 2 == 0)),
        maybe(Value::Int8(static_cast<int8_t>(i - 128))),
        Value::Int32(i * -1000003),
        maybe(Value::Int64((int64_t{1} << 62) - i * 997)),
        maybe(Value::Float(i * 0.1f)),
        maybe(Value::Double(i / 3.0)),
        maybe(Value::FromDecimal(Decimal{(i - 150) * 1001, 9, 3})),
        maybe(Value::FromDecimal(Decimal{(i % 2 ? -big : big) + i, 38, 0})),
        maybe(Value::String("héllo " + std::to_string(i))),
        maybe(Value::Binary(std::string(static_cast<size_t>(i % 5), static_cast<char>(i)))),
        maybe(Value::Int32(19000 + i)),
        maybe(Value::Int32(i * 1000)),
        maybe(Value::FromTimestamp(Timestamp{1700000000000 + i, 0})),
        maybe(Value::FromTimestamp(Timestamp{-1700000000000 + i, 123000})),
        maybe(Value::Array({Value::Int64(i), Value::Null(), Value::Int64(-i)})),
        maybe(Value::Map(
            {{Value::String("a"), Value::Int32(i)}, {Value::String("b"), Value::Null()}})),
        maybe(Value::Map({{Value::Int32(i), in}, {Value::Int32(-i - 1), Value::Null()}})),
        maybe(Value::Map({{Value::String("x" + std::to_string(i % 3)), Value::Int32(2)}})),
        maybe(in),
    }));
  }
  TempDir tmp;
  std::vector<std::string> files;
  for (const char* codec : {"null", "deflate", "snappy", "zstd"}) {
    std::string path = tmp.path() + "/" + codec + ".avro";
    WriterOptions options;
    options.compression = codec;
    SLUICE_ASSERT_OK(WriteRows(path, type, rows, options, 64).status());
    if (std::string(codec) == "zstd") {
      std::string transcoded = tmp.path() + "/zstd-as-null.avro";
      SLUICE_ASSERT_OK(
          LocalFileIO()->WriteFileAtomic(transcoded, TranscodeToNullCodec(path), true));
      path = transcoded;
    }
    files.push_back(path);
  }
  std::vector<Json> decoded = AvscDecode(files);
  ASSERT_EQ(decoded.size(), files.size());
  Json expected = ToAvscRows(rows, *type);
  for (size_t f = 0; f < files.size(); ++f) {
    SCOPED_TRACE(files[f]);
    ASSERT_EQ(decoded[f].size(), rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      ASSERT_EQ(decoded[f][i], expected[i]) << "row " << i;
    }
  }
}

TEST(AvroAvscOracleTest, AvscAgreesWithOurReaderOnCorpusManifests) {
  std::vector<std::string> corpus = ListFilesRecursive(CompatTablesDir(), [](const std::string& p) {
    return p.find("/manifest/") != std::string::npos && IsAvroFile(p);
  });
  ASSERT_GT(corpus.size(), 100u);
  // A spread of manifests, manifest lists and old union-wrapped files.
  std::vector<std::string> picked;
  for (size_t i = 0; i < corpus.size(); i += corpus.size() / 12) picked.push_back(corpus[i]);
  for (const char* name :
       {"avro_manifest_09", "avro_manifest_list_09", "avro_manifest_11", "avro_manifest_list_11"}) {
    picked.push_back(CompatTablesDir() + "/avro/manifest/" + name);
  }
  TempDir tmp;
  std::vector<std::string> transcoded;
  for (size_t i = 0; i < picked.size(); ++i) {
    std::string path = tmp.path() + "/m" + std::to_string(i) + ".avro";
    SLUICE_ASSERT_OK(LocalFileIO()->WriteFileAtomic(path, TranscodeToNullCodec(picked[i]), true));
    transcoded.push_back(path);
  }
  std::vector<Json> decoded = AvscDecode(transcoded);
  ASSERT_EQ(decoded.size(), picked.size());
  int64_t rows_compared = 0;
  for (size_t i = 0; i < picked.size(); ++i) {
    SCOPED_TRACE(picked[i]);
    SLUICE_ASSERT_OK_AND_ASSIGN(auto raw, LocalFileIO()->OpenForRead(picked[i]));
    std::shared_ptr<RandomAccessFile> file(std::move(raw));
    SLUICE_ASSERT_OK_AND_ASSIGN(auto container, AvroContainerReader::Open(file));
    SLUICE_ASSERT_OK_AND_ASSIGN(DataTypePtr type, AvroSchemaToRowType(*container->schema()));
    SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRows(file, type));
    EXPECT_EQ(decoded[i], ToAvscRows(rows, *type));
    rows_compared += static_cast<int64_t>(rows.size());
  }
  std::printf("avsc oracle: %zu corpus manifests, %lld rows agree\n", picked.size(),
              static_cast<long long>(rows_compared));
}

}  // namespace
}  // namespace sluice::test
