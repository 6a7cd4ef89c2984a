// The Parquet reader against real files: every Parquet data file of the Java-written corpus,
// and Apache parquet-testing's good and bad files, with decoded values compared to DuckDB's.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "duckdb_oracle.h"
#include "parquet_read_util.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/fs/file_io.h"
#include "test_util.h"

namespace sluice::parquet {
namespace {

using sluice::test::DuckDbOracle;
using test::CanonicalText;
using test::DuckDbCanonicalSql;
using test::FileContent;
using test::ReadParquetFile;

bool IsParquet(const std::string& path) {
  return path.size() > 8 && path.compare(path.size() - 8, 8, ".parquet") == 0;
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

// Compares our rows of `content` with DuckDB's reading of the same file, column by column in
// canonical text. Returns the number of mismatching cells (and reports the first few).
int CompareWithDuckDb(DuckDbOracle* duck, const std::string& path, const FileContent& content) {
  const DataType& type = *content.type;
  std::string sql = "SELECT ";
  for (int i = 0; i < type.num_fields(); ++i) {
    if (i > 0) sql += ", ";
    std::string column = "\"" + type.fields()[i].name + "\"";
    if (path.find("/geospatial/") != std::string::npos &&
        (type.fields()[i].name == "geometry" || type.fields()[i].name == "geography")) {
      // DuckDB turns GEOMETRY columns into its own type; ST_AsWKB gives the stored WKB back.
      column = "ST_AsWKB(" + column + ")";
    }
    sql += DuckDbCanonicalSql(column, *type.fields()[i].type);
  }
  if (type.num_fields() == 0) sql += "1";
  sql += " FROM read_parquet(" + DuckDbOracle::Quote(path) + ", hive_partitioning = false)";
  auto rows = duck->Query(sql);
  if (!rows.ok()) {
    ADD_FAILURE() << path << ": " << rows.status().ToString();
    return 1;
  }
  if (rows->size() != content.rows.size()) {
    ADD_FAILURE() << path << ": DuckDB reads " << rows->size() << " rows, we read "
                  << content.rows.size();
    return 1;
  }
  int mismatches = 0;
  for (size_t r = 0; r < rows->size(); ++r) {
    const ValueList& ours = content.rows[r].list();
    for (int c = 0; c < type.num_fields(); ++c) {
      std::string mine = CanonicalText(ours[static_cast<size_t>(c)], *type.fields()[c].type);
      std::string theirs = (*rows)[r][static_cast<size_t>(c)].value_or("NULL");
      if (mine != theirs) {
        if (++mismatches <= 3) {
          ADD_FAILURE() << path << " row " << r << " column " << type.fields()[c].name << " ("
                        << type.fields()[c].type->ToString() << "): ours " << mine << " DuckDB "
                        << theirs;
        }
      }
    }
  }
  return mismatches;
}

TEST(ParquetCorpusTest, EveryCompatTableParquetFileReadsLikeDuckDb) {
  std::vector<std::string> files =
      sluice::test::ListFilesRecursive(sluice::test::CompatTablesDir(), IsParquet);
  ASSERT_FALSE(files.empty());
  DuckDbOracle duck;
  int64_t total_rows = 0;
  for (const std::string& path : files) {
    auto content = ReadParquetFile(path);
    ASSERT_OK(content) << path;
    EXPECT_EQ(content->num_rows, static_cast<int64_t>(content->rows.size())) << path;
    total_rows += static_cast<int64_t>(content->rows.size());
    EXPECT_EQ(CompareWithDuckDb(&duck, path, *content), 0) << path;
  }
  std::printf("compat corpus: %zu Parquet files, %lld rows read and matched DuckDB\n", files.size(),
              static_cast<long long>(total_rows));
}

// parquet-testing/data files we cannot read, with the reason the reader must give.
const std::map<std::string, std::pair<StatusCode, std::string>>& ExpectedFailures() {
  static const auto* m = new std::map<std::string, std::pair<StatusCode, std::string>>{
      {"large_string_map.brotli.parquet", {StatusCode::kNotSupported, "BROTLI"}},
      {"map_no_value.parquet", {StatusCode::kNotSupported, "map without a value column"}},
      // Its dictionary page header lies about the page size (Arrow: "malformed dictionary").
      {"nation.dict-malformed.parquet",
       {StatusCode::kCorruption, "runs past the end of the column chunk"}},
  };
  return *m;
}

// Files DuckDB cannot read, compared instead with DuckDB's reading of a file that holds the
// same values in another codec.
const std::map<std::string, std::string>& DuckDbStandIn() {
  static const auto* m = new std::map<std::string, std::string>{
      {"hadoop_lz4_compressed.parquet", "lz4_raw_compressed.parquet"},
      {"non_hadoop_lz4_compressed.parquet", "lz4_raw_compressed.parquet"},
      {"hadoop_lz4_compressed_larger.parquet", "lz4_raw_compressed_larger.parquet"},
  };
  return *m;
}

// Files not compared with DuckDB, and why; each has its own value test below.
const std::map<std::string, std::string>& NoDuckDbComparison() {
  static const auto* m = new std::map<std::string, std::string>{
      {"byte_stream_split_extended.gzip.parquet",
       "DuckDB reads BYTE_STREAM_SPLIT only for FLOAT/DOUBLE; checked against its PLAIN twins"},
      {"int96_from_spark.parquet",
       "values beyond DuckDB's timestamp range; checked against the "
       "documented values"},
  };
  return *m;
}

TEST(ParquetCorpusTest, ParquetTestingDataFiles) {
  std::string dir = sluice::test::ExternalDir() + "/parquet-testing/data";
  std::vector<std::string> files = sluice::test::ListFilesRecursive(dir, IsParquet);
  ASSERT_FALSE(files.empty());
  DuckDbOracle duck;
  int read = 0, failed_as_expected = 0, compared = 0;
  for (const std::string& path : files) {
    std::string name = BaseName(path);
    auto content = ReadParquetFile(path);
    auto expected = ExpectedFailures().find(name);
    if (expected != ExpectedFailures().end()) {
      EXPECT_TRUE(test::HasError(content, expected->second.first, {name, expected->second.second}))
          << path << " was expected to fail";
      if (!content.ok()) ++failed_as_expected;
      continue;
    }
    if (!content.ok()) {
      ADD_FAILURE() << path << ": " << content.status().ToString();
      continue;
    }
    ++read;
    EXPECT_EQ(content->num_rows, static_cast<int64_t>(content->rows.size())) << path;
    if (NoDuckDbComparison().count(name) == 0) {
      auto stand_in = DuckDbStandIn().find(name);
      std::string oracle_path =
          stand_in == DuckDbStandIn().end() ? path : dir + "/" + stand_in->second;
      EXPECT_EQ(CompareWithDuckDb(&duck, oracle_path, *content), 0) << path;
      ++compared;
    }
  }
  std::printf(
      "parquet-testing data: %zu files, %d read (%d compared with DuckDB), %d failed as "
      "expected\n",
      files.size(), read, compared, failed_as_expected);
}

TEST(ParquetCorpusTest, Int96FromSparkHasTheDocumentedValues) {
  auto content = ReadParquetFile(sluice::test::ExternalDir() +
                                 "/parquet-testing/data/int96_from_spark.parquet");
  ASSERT_OK(content);
  // int96_from_spark.md gives microseconds since the epoch for the first five rows. The sixth
  // (year 290000) overflowed int64 microseconds in Spark's writer (micros + the Julian epoch
  // offset), so its bytes hold Julian day -105861208 + 2440588: readers that compute in int64
  // microseconds wrap back to the documented 9089380393200000000; we (like Java Paimon, which
  // computes in milliseconds) read the stored day faithfully.
  const std::vector<std::string> expected = {"1704141296123456000",
                                             "1704070800000000000",
                                             "253402225200000000000",
                                             "1735599600000000000",
                                             "NULL",
                                             "-9357363680509551616000"};
  ASSERT_EQ(content->rows.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const Value& v = content->rows[i].list()[0];
    std::string got = "NULL";
    if (!v.is_null()) {
      __int128 nanos = static_cast<__int128>(v.timestamp().millisecond) * 1000000 +
                       v.timestamp().nano_of_millisecond;
      bool negative = nanos < 0;
      unsigned __int128 mag = negative ? -static_cast<unsigned __int128>(nanos) : nanos;
      got.clear();
      do {
        got.insert(got.begin(), static_cast<char>('0' + static_cast<int>(mag % 10)));
        mag /= 10;
      } while (mag > 0);
      if (negative) got.insert(got.begin(), '-');
    }
    EXPECT_EQ(got, expected[i]) << "row " << i;
  }
}

TEST(ParquetCorpusTest, ByteStreamSplitExtendedMatchesPlainTwins) {
  auto content = ReadParquetFile(sluice::test::ExternalDir() +
                                 "/parquet-testing/data/byte_stream_split_extended.gzip.parquet");
  ASSERT_OK(content);
  const DataType& type = *content->type;
  int pairs = 0;
  for (int i = 0; i < type.num_fields(); ++i) {
    const std::string& name = type.fields()[i].name;
    if (name.size() < 6 || name.compare(name.size() - 6, 6, "_plain") != 0) continue;
    int twin = type.FieldIndex(name.substr(0, name.size() - 6) + "_byte_stream_split");
    ASSERT_GE(twin, 0) << name;
    ++pairs;
    for (const Value& row : content->rows) {
      EXPECT_EQ(CanonicalText(row.list()[static_cast<size_t>(i)], *type.fields()[i].type),
                CanonicalText(row.list()[static_cast<size_t>(twin)], *type.fields()[twin].type))
          << name;
    }
  }
  EXPECT_GE(pairs, 5);
  EXPECT_GT(content->rows.size(), 0u);
}

// Splits one CSV line; a quoted field keeps its text, an unquoted empty field is NULL.
std::vector<std::string> SplitCsv(const std::string& line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= line.size()) {
    std::string field;
    bool quoted = i < line.size() && line[i] == '"';
    if (quoted) {
      ++i;
      while (i < line.size() && !(line[i] == '"' && (i + 1 >= line.size() || line[i + 1] != '"'))) {
        if (line[i] == '"') ++i;
        field.push_back(line[i++]);
      }
      ++i;  // closing quote
    } else {
      while (i < line.size() && line[i] != ',') field.push_back(line[i++]);
      if (field.empty()) field = "NULL";
    }
    out.push_back(field);
    ++i;  // comma
  }
  return out;
}

TEST(ParquetCorpusTest, DeltaEncodedFilesMatchTheirExpectedCsv) {
  std::string dir = sluice::test::ExternalDir() + "/parquet-testing/data/";
  int files = 0;
  for (const char* name : {"delta_binary_packed", "delta_byte_array",
                           "delta_encoding_optional_column", "delta_encoding_required_column"}) {
    auto content = ReadParquetFile(dir + name + ".parquet");
    ASSERT_OK(content) << name;
    std::string csv = sluice::test::ReadFileOrFail(dir + name + "_expect.csv");
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < csv.size()) {
      size_t end = csv.find('\n', start);
      if (end == std::string::npos) end = csv.size();
      std::string line = csv.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) lines.push_back(line);
      start = end + 1;
    }
    ASSERT_EQ(lines.size(), content->rows.size() + 1) << name;
    const DataType& type = *content->type;
    for (size_t r = 0; r < content->rows.size(); ++r) {
      std::vector<std::string> cells = SplitCsv(lines[r + 1]);
      ASSERT_EQ(cells.size(), static_cast<size_t>(type.num_fields())) << name << " row " << r;
      for (int c = 0; c < type.num_fields(); ++c) {
        ASSERT_EQ(
            CanonicalText(content->rows[r].list()[static_cast<size_t>(c)], *type.fields()[c].type),
            cells[static_cast<size_t>(c)])
            << name << " row " << r << " column " << type.fields()[c].name;
      }
    }
    ++files;
  }
  EXPECT_EQ(files, 4);
}

TEST(ParquetCorpusTest, EncryptedFilesAreNotSupported) {
  std::string dir = sluice::test::ExternalDir() + "/parquet-testing/data";
  std::vector<std::string> files = sluice::test::ListFilesRecursive(dir, [](const std::string& p) {
    // Not the key material that sits beside them (`.parquet.encrypted.json`).
    const std::string suffix = ".parquet.encrypted";
    return p.size() > suffix.size() &&
           p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0;
  });
  ASSERT_FALSE(files.empty());
  for (const std::string& path : files) {
    auto content = ReadParquetFile(path);
    EXPECT_TRUE(
        test::HasError(content, StatusCode::kNotSupported, {BaseName(path), "not supported"}));
  }
}

TEST(ParquetCorpusTest, BadDataFilesGiveErrors) {
  // What each corrupt file must report (a part of the message).
  const std::map<std::string, std::string> expected = {
      {"ARROW-GH-41317.parquet", "ColumnMetaData field 2"},
      {"ARROW-GH-41321.parquet", "levels: RLE/bit-packed stream runs short"},
      {"ARROW-GH-45185.parquet", "the first repetition level is not 0"},
      {"ARROW-GH-47662.parquet", "PLAIN values run past the end of the page"},
      {"ARROW-RS-GH-6229-DICTHEADER.parquet", "DataPageHeader field 1"},
      {"ARROW-RS-GH-6229-LEVELS.parquet", "data page claims 21 values"},
      {"PARQUET-1481.parquet", "invalid physical type"},
  };
  std::string dir = sluice::test::ExternalDir() + "/parquet-testing/bad_data";
  std::vector<std::string> files = sluice::test::ListFilesRecursive(dir, IsParquet);
  ASSERT_EQ(files.size(), expected.size() + 1);
  for (const std::string& path : files) {
    std::string name = BaseName(path);
    auto content = ReadParquetFile(path);
    if (name == "ARROW-GH-43605.parquet") {
      // Dictionary indices with bit width 0 are well defined (every index is 0); this file
      // crashed readers but reads as 21186 zeros, as DuckDB reads it too.
      ASSERT_OK(content);
      ASSERT_EQ(content->rows.size(), 21186u);
      for (const Value& row : content->rows) ASSERT_EQ(row.list()[0].AsInt64(), 0);
      continue;
    }
    ASSERT_EQ(expected.count(name), 1u) << name;
    ASSERT_TRUE(test::HasError(content, StatusCode::kCorruption, {name, expected.at(name)}))
        << path << (content.ok() ? " read " + std::to_string(content->rows.size()) + " rows" : "");
  }
}

}  // namespace
}  // namespace sluice::parquet
