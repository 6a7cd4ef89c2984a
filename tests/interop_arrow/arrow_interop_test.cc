// Interop with Arrow C++ (through pyarrow), the reference of Parquet and ORC outside the JVM:
//
//  - SluiceFilesReadInPyarrow: Parquet and ORC files that Sluice's writers write (every Paimon
//    type, nulls at every level, every codec, dictionaries on and off, small pages, row groups
//    and stripes) read in pyarrow to the values written;
//  - PyarrowFilesReadInSluice: files that pyarrow writes with each option it offers (page
//    versions, encodings, codecs, dictionaries, page and row-group sizes, statistics, INT96, ORC
//    compressions and stripe sizes) read in Sluice's codecs to the values pyarrow wrote, and the
//    Parquet ones also through `sluice write --format parquet` and `sluice read --format jsonl`;
//  - CDataInterfaceWithPyarrow: pyarrow imports the ArrowArrayStreams of sluice/arrow.h (every
//    Paimon type, time travel, projection and filter) and gets the types Java's paimon-arrow
//    gives and the values it reads from the table's own files; pyarrow's streams written through
//    TableWrite read back as written; errors name the column or the producer's failure. Python
//    loads a test-only C ABI over libsluice.so (shim/arrow_shim.cc) with ctypes.
//
// Python starts once per direction (one script run over every file). Each test prints its
// counts (files, values, mismatches) and its expected-failure list on every run.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "interop_values.h"
#include "sluice/base/json_writer.h"
#include "sluice/catalog.h"
#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/column_batch.h"
#include "sluice/format/orc/orc_file_format.h"
#include "sluice/format/parquet/parquet_file_format.h"
#include "sluice/fs/file_io.h"
#include "sluice/value_json.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice::test {
namespace {

DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

// Every Paimon type the two writers store, flat and nested, nullable and not.
DataTypePtr AllTypes() {
  int32_t id = 0;
  auto f = [&](std::string name, DataTypePtr type) { return Field(id++, std::move(name), type); };
  std::vector<DataField> fields = {
      f("id", DataType::Int(false)),
      f("b", DataType::Boolean()),
      f("i8", DataType::TinyInt()),
      f("i16", DataType::SmallInt()),
      f("i32", DataType::Int()),
      f("i64", DataType::BigInt()),
      f("i64_nn", DataType::BigInt(false)),
      f("f32", DataType::Float()),
      f("f64", DataType::Double()),
      f("dec_1_0", DataType::Decimal(1, 0)),
      f("dec_5_2", DataType::Decimal(5, 2)),
      f("dec_9_9", DataType::Decimal(9, 9)),
      f("dec_10_3", DataType::Decimal(10, 3)),
      f("dec_18_6", DataType::Decimal(18, 6)),
      f("dec_19_2", DataType::Decimal(19, 2)),
      f("dec_28_10", DataType::Decimal(28, 10)),
      f("dec_38_0", DataType::Decimal(38, 0)),
      f("dec_38_18", DataType::Decimal(38, 18)),
      f("ch", DataType::Char(5)),
      f("vc", DataType::VarChar(20)),
      f("s", DataType::String()),
      f("s_low", DataType::String()),
      f("s_nn", DataType::String(false)),
      f("bin", DataType::Binary(4)),
      f("vbin", DataType::VarBinary(12)),
      f("bytes", DataType::Bytes()),
      f("d", DataType::Date()),
      f("t0", DataType::Time(0)),
      f("t3", DataType::Time(3)),
      f("ts0", DataType::Timestamp(0)),
      f("ts1", DataType::Timestamp(1)),
      f("ts3", DataType::Timestamp(3)),
      f("ts4", DataType::Timestamp(4)),
      f("ts6", DataType::Timestamp(6)),
      f("ts7", DataType::Timestamp(7)),
      f("ts9", DataType::Timestamp(9)),
      f("ltz0", DataType::TimestampLtz(0)),
      f("ltz3", DataType::TimestampLtz(3)),
      f("ltz6", DataType::TimestampLtz(6)),
      f("ltz9", DataType::TimestampLtz(9)),
      f("a_i32", DataType::Array(DataType::Int())),
      f("a_s_nn", DataType::Array(DataType::String(false))),
      f("a_a_i64", DataType::Array(DataType::Array(DataType::BigInt()))),
      f("m_s_i32", DataType::Map(DataType::String(false), DataType::Int())),
      f("m_i32_a_s", DataType::Map(DataType::Int(false), DataType::Array(DataType::String()))),
      f("ms", DataType::Multiset(DataType::String(false))),
  };
  fields.push_back(f("r", nullptr));
  fields.back().type = DataType::Row({f("a", DataType::Int()), f("b", DataType::String()),
                                      f("c", DataType::Array(DataType::Double())),
                                      f("d", DataType::Decimal(20, 4))});
  fields.push_back(f("a_r", nullptr));
  fields.back().type =
      DataType::Array(DataType::Row({f("x", DataType::BigInt()), f("y", DataType::Timestamp(6))}));
  fields.push_back(f("m_s_r", nullptr));
  fields.back().type =
      DataType::Map(DataType::String(false),
                    DataType::Row({f("p", DataType::TimestampLtz(3)), f("q", DataType::Bytes())}));
  fields.push_back(f("r_nn", nullptr));
  fields.back().type =
      DataType::Row({f("k", DataType::Int(false)), f("v", DataType::Date())}, false);
  return DataType::Row(std::move(fields));
}

// Random values of a type. Timestamps of precision <= 6 span years 0001..9999 where `wide`, else
// (ORC and INT96, which pyarrow reads as nanoseconds) 1900..2200.
class ValueGenerator {
 public:
  ValueGenerator(uint64_t seed, bool wide) : rng_(seed), wide_(wide) {}

  Value Make(const DataType& type) {
    if (type.nullable() && Chance(0.12)) return Value::Null();
    switch (type.root()) {
      case TypeRoot::kBoolean:
        return Value::Boolean(Chance(0.5));
      case TypeRoot::kTinyInt:
        return Value::Int8(static_cast<int8_t>(EdgeInt(8)));
      case TypeRoot::kSmallInt:
        return Value::Int16(static_cast<int16_t>(EdgeInt(16)));
      case TypeRoot::kInt:
        return Value::Int32(static_cast<int32_t>(EdgeInt(32)));
      case TypeRoot::kBigInt:
        return Value::Int64(EdgeInt(64));
      case TypeRoot::kFloat:
        return Value::Float(static_cast<float>(Floating()));
      case TypeRoot::kDouble:
        return Value::Double(Floating());
      case TypeRoot::kDecimal: {
        int digits = static_cast<int>(Uniform(1, type.precision()));
        int128_t unscaled = 0;
        for (int i = 0; i < digits; ++i) unscaled = unscaled * 10 + Uniform(0, 9);
        if (Chance(0.5)) unscaled = -unscaled;
        return Value::FromDecimal(Decimal{unscaled, type.precision(), type.scale()});
      }
      case TypeRoot::kChar:
        return Value::String(Text(type.length(), type.length()));
      case TypeRoot::kVarChar:
        if (type.length() < 1000) return Value::String(Text(0, type.length()));
        // Low cardinality too, for dictionaries.
        if (Chance(0.3)) return Value::String(kLow[Uniform(0, 4)]);
        return Value::String(Text(0, 30));
      case TypeRoot::kBinary:
        return Value::Binary(Bytes(type.length(), type.length()));
      case TypeRoot::kVarBinary:
        return Value::Binary(Bytes(0, std::min(type.length(), 40)));
      case TypeRoot::kDate:
        return Value::Int32(static_cast<int32_t>(Uniform(-719162, 2932896)));
      case TypeRoot::kTime: {
        int64_t millis = Uniform(0, 86'399'999);
        return Value::Int32(
            static_cast<int32_t>(Truncate(millis * 1'000'000, type.precision()) / 1'000'000));
      }
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz: {
        const bool wide = wide_ && type.precision() <= 6;
        const int64_t lo = wide ? -62'135'596'800'000LL : -2'208'988'800'000LL;
        const int64_t hi = wide ? 253'402'300'799'999LL : 7'258'118'399'999LL;
        __int128 nanos = static_cast<__int128>(Uniform(lo, hi)) * 1'000'000 + Uniform(0, 999'999);
        nanos = Truncate(nanos, type.precision());
        __int128 millis = nanos / 1'000'000;
        __int128 rest = nanos % 1'000'000;
        if (rest < 0) {
          rest += 1'000'000;
          millis -= 1;
        }
        return Value::FromTimestamp(
            Timestamp{static_cast<int64_t>(millis), static_cast<int32_t>(rest)});
      }
      case TypeRoot::kArray: {
        ValueList items;
        for (int64_t n = Uniform(0, 4); n > 0; --n) items.push_back(Make(*type.element()));
        return Value::Array(std::move(items));
      }
      case TypeRoot::kMap:
      case TypeRoot::kMultiset: {
        static const DataTypePtr kCount = DataType::Int(false);
        const DataType& key = type.root() == TypeRoot::kMap ? *type.key() : *type.element();
        const DataType& value = type.root() == TypeRoot::kMap ? *type.value() : *kCount;
        ValuePairs pairs;
        std::vector<std::string> keys;
        for (int64_t n = Uniform(0, 3); n > 0; --n) {
          Value k = Make(key);
          std::string text = ValueToJson(k, key);
          if (std::find(keys.begin(), keys.end(), text) != keys.end()) continue;
          keys.push_back(text);
          Value v = type.root() == TypeRoot::kMap
                        ? Make(value)
                        : Value::Int32(static_cast<int32_t>(Uniform(1, 5)));
          pairs.emplace_back(std::move(k), std::move(v));
        }
        return Value::Map(std::move(pairs));
      }
      case TypeRoot::kRow: {
        ValueList fields;
        for (const DataField& f : type.fields()) fields.push_back(Make(*f.type));
        return Value::Row(std::move(fields));
      }
      default:
        ADD_FAILURE() << "no generator for " << type.ToString();
        return Value::Null();
    }
  }

 private:
  static constexpr const char* kLow[] = {"red", "green", "blue", "", "violet"};

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  int64_t EdgeInt(int bits) {
    const int64_t hi = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    const int64_t lo = -hi - 1;
    switch (Uniform(0, 6)) {
      case 0:
        return lo;
      case 1:
        return hi;
      case 2:
        return 0;
      case 3:
        return Uniform(-100, 100);
      default:
        return Uniform(lo, hi);
    }
  }
  double Floating() {
    switch (Uniform(0, 9)) {
      case 0:
        return std::numeric_limits<double>::quiet_NaN();
      case 1:
        return Chance(0.5) ? std::numeric_limits<double>::infinity()
                           : -std::numeric_limits<double>::infinity();
      case 2:
        return Chance(0.5) ? -0.0 : 0.0;
      case 3:
        return std::numeric_limits<float>::denorm_min();
      case 4:
        return static_cast<double>(Uniform(-50, 50));
      default:
        return std::uniform_real_distribution<double>(-1e6, 1e6)(rng_);
    }
  }
  // UTF-8 text of `lo`..`hi` code points, multi-byte ones included.
  std::string Text(int64_t lo, int64_t hi) {
    static const char* kChars[] = {"a",
                                   "b",
                                   "z",
                                   "A",
                                   "0",
                                   "9",
                                   " ",
                                   "_",
                                   "\xc3\xa9",
                                   "\xe2\x82\xac",
                                   "\xe4\xb8\xad",
                                   "\xf0\x9f\x98\x80"};
    std::string out;
    for (int64_t n = Uniform(lo, hi); n > 0; --n) out += kChars[Uniform(0, 11)];
    return out;
  }
  std::string Bytes(int64_t lo, int64_t hi) {
    std::string out;
    for (int64_t n = Uniform(lo, hi); n > 0; --n) out.push_back(static_cast<char>(Uniform(0, 255)));
    return out;
  }
  // Nanoseconds truncated (toward negative infinity) to `precision` fraction digits of seconds.
  static __int128 Truncate(__int128 nanos, int precision) {
    __int128 unit = 1;
    for (int p = precision; p < 9; ++p) unit *= 10;
    __int128 q = nanos / unit;
    if (nanos % unit < 0) --q;
    return q * unit;
  }

  std::mt19937_64 rng_;
  bool wide_;
};

std::vector<Value> MakeRows(const DataType& type, int rows, uint64_t seed, bool wide) {
  ValueGenerator gen(seed, wide);
  std::vector<Value> out;
  for (int i = 0; i < rows; ++i) {
    ValueList fields;
    for (const DataField& f : type.fields()) fields.push_back(gen.Make(*f.type));
    fields[0] = Value::Int32(i);
    out.push_back(Value::Row(std::move(fields)));
  }
  return out;
}

struct WrittenFile {
  std::string name;
  std::string path;
  const std::vector<Value>* rows;
  CanonicalOptions canonical;
};

Status WriteFile(const FileFormat& format, const std::string& path, const DataTypePtr& type,
                 const std::vector<Value>& rows, const WriterOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(auto file, LocalFileIO()->OpenForWrite(path, true));
  SLUICE_ASSIGN_OR_RETURN(auto writer, format.CreateWriter(std::move(file), type, options));
  ColumnBatch batch(type);
  for (size_t i = 0; i < rows.size(); ++i) {
    SLUICE_RETURN_NOT_OK(batch.AppendRow(rows[i].list()));
    if (batch.num_rows() == 300 || i + 1 == rows.size()) {
      SLUICE_RETURN_NOT_OK(writer->Write(batch));
      batch.Clear();
    }
  }
  return writer->Finish().status();
}

std::string Basename(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

TEST(ArrowInteropTest, SluiceFilesReadInPyarrow) {
  TempDir dir;
  const DataTypePtr type = AllTypes();
  constexpr int kRows = 1000;
  const std::vector<Value> wide_rows = MakeRows(*type, kRows, 101, true);
  const std::vector<Value> narrow_rows = MakeRows(*type, kRows, 202, false);

  std::vector<WrittenFile> files;
  auto add = [&](const FileFormat& format, const std::string& name, const WriterOptions& options,
                 const std::vector<Value>& rows, CanonicalOptions canonical) {
    const std::string path = dir.path() + "/" + name + "." + std::string(format.identifier());
    Status st = WriteFile(format, path, type, rows, options);
    ASSERT_OK(st) << name;
    files.push_back({Basename(path), path, &rows, canonical});
  };
  const CanonicalOptions parquet_canonical;
  CanonicalOptions orc_canonical;
  orc_canonical.time_unit_nanos = 1'000'000;

  for (const std::string codec : {"none", "snappy", "gzip", "lz4", "zstd"}) {
    for (bool dictionary : {true, false}) {
      WriterOptions options;
      options.compression = codec;
      options.options["parquet.enable.dictionary"] = dictionary ? "true" : "false";
      // INT96 (TIMESTAMP(7..9)) reads as nanoseconds in pyarrow: the narrow range keeps them in.
      add(*ParquetFormat(), "codec_" + codec + (dictionary ? "_dictionary" : "_plain") + "_wide",
          options, wide_rows, parquet_canonical);
      if (codec == "zstd") {
        add(*ParquetFormat(), "codec_zstd_" + std::string(dictionary ? "dictionary" : "plain"),
            options, narrow_rows, parquet_canonical);
      }
    }
  }
  for (bool dictionary : {true, false}) {
    WriterOptions options;
    options.compression = "snappy";
    options.options["parquet.enable.dictionary"] = dictionary ? "true" : "false";
    options.options["parquet.page.size"] = "2048";
    options.options["parquet.page.row.count.limit"] = "64";
    options.options["parquet.dictionary.page.size"] = "512";
    options.options["parquet.block.size"] = "65536";
    add(*ParquetFormat(),
        std::string("small_pages_row_groups_") + (dictionary ? "dictionary" : "plain"), options,
        narrow_rows, parquet_canonical);
  }
  for (const std::string codec : {"none", "zlib", "snappy", "lz4", "zstd"}) {
    for (const std::string threshold : {"0", "1"}) {
      WriterOptions options;
      options.compression = codec;
      options.options["orc.dictionary.key.threshold"] = threshold;
      add(*OrcFormat(), "codec_" + codec + (threshold == "0" ? "_direct" : "_dictionary"), options,
          narrow_rows, orc_canonical);
    }
  }
  {
    WriterOptions options;
    options.compression = "zstd";
    options.options["orc.stripe.size"] = "16384";
    options.options["orc.compress.size"] = "4096";
    options.options["orc.row.index.stride"] = "100";
    add(*OrcFormat(), "small_stripes", options, narrow_rows, orc_canonical);
  }

  const std::string list_path = dir.path() + "/files.txt";
  {
    std::ofstream list(list_path);
    for (const WrittenFile& f : files) list << f.path << "\n";
  }
  const std::string out_path = dir.path() + "/pyarrow_values.jsonl";
  RunPythonScript(PythonOf("arrow", "SLUICE_ARROW_PYTHON"), "arrow_read.py", {list_path, out_path});
  auto records = ReadJsonLines(out_path);
  ASSERT_OK(records);
  ASSERT_EQ(records->size(), files.size());

  CaseLedger ledger("sluice-files-in-pyarrow", {});
  for (size_t i = 0; i < files.size(); ++i) {
    const WrittenFile& file = files[i];
    const Json& record = (*records)[i];
    if (record.contains("error")) {
      ledger.AddCase(file.name, 0, {}, record["error"].get<std::string>());
      continue;
    }
    std::vector<std::string> mismatches;
    const Json& schema = record["schema"];
    for (size_t c = 0; c < type->fields().size(); ++c) {
      if (c >= schema.size() || schema[c][0] != type->fields()[c].name) {
        mismatches.push_back("column " + std::to_string(c) + " is " +
                             (c < schema.size() ? schema[c].dump() : "missing") + ", expected " +
                             type->fields()[c].name);
      }
    }
    std::vector<Value> read;
    for (const Json& row : record["rows"]) {
      auto v = DecodeCanonical(row, *type, file.canonical);
      if (!v.ok()) {
        mismatches.push_back(v.status().ToString());
        break;
      }
      read.push_back(std::move(*v));
    }
    int64_t values = mismatches.empty() ? CompareRows(*type, *file.rows, read, &mismatches) : 0;
    ledger.AddCase(file.name, values, mismatches);
  }
  ledger.Report();
  EXPECT_EQ(ledger.cases(), 25);
}

// Files pyarrow writes that Sluice does not read yet, by file name, with the reason.
std::map<std::string, std::string> PyarrowExpectedFailures() {
  return {
      {"codec_brotli_page_v1.parquet", "BROTLI has no codec in Sluice (nor in Paimon's writers)"},
      {"codec_brotli_page_v2.parquet", "BROTLI has no codec in Sluice (nor in Paimon's writers)"},
  };
}

// The table columns for a file's schema as Sluice reads it: the same types, nullable.
std::vector<DataField> TableColumns(const DataType& file_type) {
  std::vector<DataField> columns;
  for (const DataField& f : file_type.fields()) {
    columns.push_back(Field(0, f.name, f.type->WithNullable(true)));
  }
  return columns;
}

// A row as `sluice read --format jsonl` prints it (cli/row_printer.cc): an object of the
// columns' value_json.h renderings.
std::string JsonLine(const DataType& row_type, const Value& row) {
  std::string line = "{";
  for (size_t c = 0; c < row_type.fields().size(); ++c) {
    if (c > 0) line += ',';
    AppendJsonString(row_type.fields()[c].name, &line);
    line += ':';
    AppendValueJson(row.list()[c], *row_type.fields()[c].type, &line);
  }
  return line + "}";
}

// The files also written through `sluice write --format parquet` (every file runs through the
// codec): one per page version and encoding family, the smallest pages, INT96, legacy nesting.
bool ThroughCli(const std::string& name) {
  static const std::set<std::string> kFiles = {
      "codec_zstd_page_v1.parquet",
      "codec_snappy_page_v2.parquet",
      "encoding_delta_binary_packed_page_v2.parquet",
      "encoding_delta_byte_array_page_v2.parquet",
      "encoding_byte_stream_split_page_v2.parquet",
      "small_pages_and_row_groups_page_v1.parquet",
      "int96_timestamps.parquet",
      "legacy_nested_names.parquet",
  };
  return kFiles.count(name) > 0;
}

TEST(ArrowInteropTest, PyarrowFilesReadInSluice) {
  TempDir dir;
  const std::string files_dir = dir.path() + "/files";
  std::filesystem::create_directories(files_dir);
  RunPythonScript(PythonOf("arrow", "SLUICE_ARROW_PYTHON"), "arrow_write.py", {files_dir});
  auto files = ReadJsonLines(files_dir + "/files.jsonl");
  ASSERT_OK(files);
  auto dataset_lines = ReadJsonLines(files_dir + "/datasets.jsonl");
  ASSERT_OK(dataset_lines);
  std::map<std::string, const Json*> datasets;
  for (const Json& d : *dataset_lines) datasets[d["dataset"].get<std::string>()] = &d;

  const std::string warehouse = dir.path() + "/warehouse";
  FilesystemCatalog catalog(LocalFileIO(), warehouse);
  ASSERT_OK(catalog.CreateDatabase("db"));

  CaseLedger codec_ledger("pyarrow-files-in-sluice-codec", PyarrowExpectedFailures());
  CaseLedger cli_ledger("pyarrow-files-through-sluice-write", {});
  int table_number = 0;
  for (const Json& entry : *files) {
    const std::string path = entry["file"].get<std::string>();
    const std::string name = Basename(path);
    const Json& dataset = *datasets.at(entry["dataset"].get<std::string>());
    const bool is_parquet = entry["format"] == "parquet";

    auto content = ReadDataFile(path);
    std::vector<Value> expected;
    std::vector<std::string> mismatches;
    int64_t values = 0;
    if (!content.ok()) {
      codec_ledger.AddCase(name, 0, {}, content.status().ToString());
    } else {
      const DataType& type = *content->type;
      const Json& schema = dataset["schema"];
      if (schema.size() != type.fields().size()) {
        mismatches.push_back("Sluice reads " + std::to_string(type.fields().size()) +
                             " columns, pyarrow wrote " + std::to_string(schema.size()));
      }
      for (size_t c = 0; c < std::min(schema.size(), type.fields().size()); ++c) {
        if (schema[c][0] != type.fields()[c].name) {
          mismatches.push_back("column " + std::to_string(c) + " is " + type.fields()[c].name +
                               ", pyarrow wrote " + schema[c].dump());
        }
      }
      if (mismatches.empty()) {
        for (const Json& row : dataset["rows"]) {
          auto v = DecodeCanonical(row, type);
          if (!v.ok()) {
            mismatches.push_back(v.status().ToString());
            break;
          }
          expected.push_back(std::move(*v));
        }
      }
      if (mismatches.empty()) values = CompareRows(type, expected, content->rows, &mismatches);
      codec_ledger.AddCase(name, values, mismatches);
    }
    if (!is_parquet || !ThroughCli(name)) continue;

    // Through the command line: a table with the file's columns, `sluice write --format
    // parquet`, then `sluice read --format jsonl`, compared with what pyarrow wrote.
    if (!content.ok() || expected.empty()) {
      cli_ledger.AddCase(name, 0, {},
                         content.ok() ? "no expected rows" : content.status().ToString());
      continue;
    }
    const std::string table = "db.t" + std::to_string(table_number++);
    NewTableSpec spec;
    spec.columns = TableColumns(*content->type);
    Status created = catalog.CreateTable(table, spec);
    if (!created.ok()) {
      cli_ledger.AddCase(name, 0, {}, "create table: " + created.ToString());
      continue;
    }
    CommandResult write = RunSluice("write " + table + " --warehouse '" + warehouse +
                                    "' --format parquet --input '" + path + "'");
    if (write.exit_code != 0) {
      cli_ledger.AddCase(name, 0, {}, "sluice write: " + write.err);
      continue;
    }
    CommandResult read =
        RunSluice("read " + table + " --warehouse '" + warehouse + "' --format jsonl");
    if (read.exit_code != 0) {
      cli_ledger.AddCase(name, 0, {}, "sluice read: " + read.err);
      continue;
    }
    std::vector<std::string> got;
    std::stringstream lines(read.out);
    for (std::string line; std::getline(lines, line);) got.push_back(line);
    std::sort(got.begin(), got.end());
    const DataTypePtr table_type = DataType::Row(TableColumns(*content->type));
    std::vector<std::string> want;
    for (const Value& row : expected) want.push_back(JsonLine(*table_type, row));
    std::sort(want.begin(), want.end());
    std::vector<std::string> cli_mismatches;
    if (got.size() != want.size()) {
      cli_mismatches.push_back("rows: sluice read " + std::to_string(got.size()) +
                               ", pyarrow wrote " + std::to_string(want.size()));
    }
    int64_t cli_values = 0;
    for (size_t r = 0; r < std::min(got.size(), want.size()); ++r) {
      if (got[r] != want[r])
        cli_mismatches.push_back("sorted row " + std::to_string(r) + ": expected " + want[r] +
                                 ", got " + got[r]);
    }
    for (const Value& row : expected) cli_values += CountLeafValues(row, *table_type);
    cli_ledger.AddCase(name, cli_values, cli_mismatches);
  }
  codec_ledger.Report();
  cli_ledger.Report();
  EXPECT_EQ(codec_ledger.cases(), static_cast<int64_t>(files->size()));
  EXPECT_EQ(cli_ledger.cases(), 8);
}

// Sluice's Arrow C Data Interface with pyarrow on the other side (arrow_c_interface.py).
TEST(ArrowInteropTest, CDataInterfaceWithPyarrow) {
  TempDir dir;
  Catalog catalog = Catalog::Filesystem(dir.path());
  ASSERT_OK(catalog.CreateDatabase("db"));
  const DataTypePtr type = AllTypes();
  NewTableSpec spec;
  spec.columns = type->fields();
  ASSERT_OK(catalog.CreateTable("db.all", spec));
  auto table = catalog.GetTable("db.all");
  ASSERT_OK(table);
  // Two commits: rows [0, 200) then [200, 300).
  constexpr int kFirstRows = 200;
  const std::vector<Value> rows = MakeRows(*type, 300, 303, true);
  for (auto [begin, end] : {std::pair{0, kFirstRows}, std::pair{kFirstRows, 300}}) {
    WriteBuilder builder = table->NewWriteBuilder();
    auto write = builder.NewWrite();
    ASSERT_OK(write);
    ColumnBatch batch(type);
    for (int i = begin; i < end; ++i) ASSERT_OK(batch.AppendRow(rows[i].list()));
    ASSERT_OK((*write)->Write(batch));
    auto messages = (*write)->PrepareCommit();
    ASSERT_OK(messages);
    auto commit = builder.NewCommit();
    ASSERT_OK(commit);
    ASSERT_OK((*commit)->Commit(std::move(*messages)).status());
    ASSERT_OK((*write)->Close());
  }
  const std::string ids_path = dir.path() + "/field_ids.json";
  {
    std::ofstream ids(ids_path);
    std::string json = "{";
    for (const DataField& f : type->fields()) {
      json += (json.size() > 1 ? ", \"" : "\"") + f.name + "\": " + std::to_string(f.id);
    }
    ids << json << "}\n";
  }

  // The table pyarrow writes into (arrow_c_interface.py: WRITE_COLUMNS).
  int32_t id = 0;
  auto f = [&](std::string name, DataTypePtr t) { return Field(id++, std::move(name), t); };
  NewTableSpec write_spec;
  write_spec.columns = {f("id", DataType::BigInt(false)),
                        f("b", DataType::Boolean()),
                        f("i32", DataType::Int()),
                        f("dec", DataType::Decimal(12, 3)),
                        f("dec38", DataType::Decimal(38, 10)),
                        f("s", DataType::String()),
                        f("bin", DataType::Bytes()),
                        f("d", DataType::Date()),
                        f("t", DataType::Time(3)),
                        f("ts", DataType::Timestamp(6)),
                        f("ltz", DataType::TimestampLtz(3)),
                        f("tsn", DataType::Timestamp(9)),
                        f("a", DataType::Array(DataType::String())),
                        f("m", DataType::Map(DataType::String(false), DataType::Double())),
                        f("r", DataType::Row({f("x", DataType::Int()),
                                              f("y", DataType::Array(DataType::BigInt()))}))};
  ASSERT_OK(catalog.CreateTable("db.w", write_spec));

  // The shim links the sanitized libsluice.so: its runtime must come first in Python, which
  // does not free everything at exit.
#ifdef SLUICE_ARROW_SHIM_PRELOAD
  const char* asan_options = std::getenv("ASAN_OPTIONS");
  const std::string saved_asan_options = asan_options != nullptr ? asan_options : "";
  setenv("LD_PRELOAD", SLUICE_ARROW_SHIM_PRELOAD, 1);
  setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
  const std::string out =
      RunPythonScript(PythonOf("arrow", "SLUICE_ARROW_PYTHON"), "arrow_c_interface.py",
                      {SLUICE_ARROW_SHIM, dir.path() + "/db.db/all", ids_path,
                       std::to_string(kFirstRows), dir.path() + "/db.db/w"});
#ifdef SLUICE_ARROW_SHIM_PRELOAD
  unsetenv("LD_PRELOAD");
  if (asan_options != nullptr) {
    setenv("ASAN_OPTIONS", saved_asan_options.c_str(), 1);
  } else {
    unsetenv("ASAN_OPTIONS");
  }
#endif
  std::cout << out;
  EXPECT_NE(out.find("SUMMARY checks=14 failures=0"), std::string::npos) << out;
}

}  // namespace
}  // namespace sluice::test
