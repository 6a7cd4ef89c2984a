// The Parquet reader against files DuckDB writes: a matrix of types x nullability x nesting x
// codecs x page versions (v1, and v2 with DuckDB's delta encodings), compared value by value
// with DuckDB's own reading.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "duckdb_oracle.h"
#include "parquet_read_util.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "test_util.h"

namespace sluice::parquet {
namespace {

using sluice::test::DuckDbOracle;
using sluice::test::TempDir;
using test::CanonicalText;
using test::DuckDbCanonicalSql;
using test::ReadParquetFile;

// Writes `select` with DuckDB to a Parquet file with `options`, reads it with us and with DuckDB
// and compares every cell. Returns the rows compared.
int64_t RoundTrip(DuckDbOracle* duck, const std::string& path, const std::string& select,
                  const std::string& options) {
  auto st = duck->Query("COPY (" + select + ") TO " + DuckDbOracle::Quote(path) +
                        " (FORMAT parquet" + (options.empty() ? "" : ", " + options) + ")");
  EXPECT_OK(st);
  if (!st.ok()) return 0;
  auto content = ReadParquetFile(path);
  EXPECT_OK(content) << select << " / " << options;
  if (!content.ok()) return 0;
  const DataType& type = *content->type;
  std::string sql = "SELECT ";
  for (int i = 0; i < type.num_fields(); ++i) {
    if (i > 0) sql += ", ";
    sql += DuckDbCanonicalSql("\"" + type.fields()[i].name + "\"", *type.fields()[i].type);
  }
  sql += " FROM read_parquet(" + DuckDbOracle::Quote(path) + ")";
  auto rows = duck->Query(sql);
  EXPECT_OK(rows);
  if (!rows.ok()) return 0;
  EXPECT_EQ(rows->size(), content->rows.size()) << select;
  int mismatches = 0;
  for (size_t r = 0; r < std::min(rows->size(), content->rows.size()); ++r) {
    for (int c = 0; c < type.num_fields(); ++c) {
      std::string mine =
          CanonicalText(content->rows[r].list()[static_cast<size_t>(c)], *type.fields()[c].type);
      std::string theirs = (*rows)[r][static_cast<size_t>(c)].value_or("NULL");
      if (mine != theirs && ++mismatches <= 3) {
        ADD_FAILURE() << select << " / " << options << ": row " << r << " column "
                      << type.fields()[c].name << " (" << type.fields()[c].type->ToString()
                      << "): ours " << mine << " DuckDB " << theirs;
      }
    }
  }
  return static_cast<int64_t>(content->rows.size());
}

// Columns of every type Paimon maps, nullable (every 7th row null) or not, flat and nested.
std::string MatrixSelect(int rows) {
  std::string n = std::to_string(rows);
  auto nullable = [](const std::string& e) {
    return "CASE WHEN i % 7 = 3 THEN NULL ELSE " + e + " END";
  };
  std::vector<std::pair<std::string, std::string>> cols = {
      {"b", "i % 3 = 0"},
      {"ti", "(i % 200 - 100)::TINYINT"},
      {"si", "(i * 7 % 60000 - 30000)::SMALLINT"},
      {"ii", "(i * 7919 - 50000)::INTEGER"},
      {"bi", "(i * 1000000007 - 4000000000)::BIGINT"},
      {"f", "(i / 3.0)::FLOAT"},
      {"d", "(i * 1.25 - 77.5)::DOUBLE"},
      {"dec4", "(i / 100.0 - 5)::DECIMAL(4, 2)"},
      {"dec9", "(i * 12.345)::DECIMAL(9, 3)"},
      {"dec18", "(i * 1234567.891)::DECIMAL(18, 3)"},
      {"dec38", "(i * 123456789012345.6789 - 1e20)::DECIMAL(38, 4)"},
      {"s", "'str' || (i % 37)::VARCHAR || repeat('x', i % 5)"},
      {"bl", "('\\x00\\xFF' || i::VARCHAR)::BLOB"},
      {"dt", "(DATE '1969-12-25' + (i * 13)::INTEGER)"},
      {"tm", "(TIME '00:00:00' + INTERVAL (i * 1234567) MILLISECOND)"},
      {"ts_ms", "make_timestamp(1500000000000000 + i * 1234567000::BIGINT)::TIMESTAMP_MS"},
      {"ts_us", "make_timestamp(-100000000000 + i * 123456789::BIGINT)"},
      {"ts_ns", "make_timestamp(1600000000000000 + i * 1000::BIGINT)::TIMESTAMP_NS"},
      {"tstz", "make_timestamp(1600000000000000 + i * 777::BIGINT)::TIMESTAMPTZ"},
      {"li", "CASE WHEN i % 5 = 0 THEN [] ELSE [i, NULL, i + 1] END"},
      {"ls", "['a' || i::VARCHAR, NULL]"},
      {"lli", "[[i], [], NULL, [i, i]]"},
      {"st", "{'x': i, 'y': 'v' || i::VARCHAR, 'z': [i * 1.5]}"},
      {"ml", "MAP {'k' || i::VARCHAR: [i, i + 1], 'q': NULL}"},
      {"lst", "[{'a': i, 'b': NULL::VARCHAR}, NULL, {'a': NULL, 'b': 'x'}]"},
      {"mst", "MAP {i: {'p': i, 'q': [NULL, 'w']}}"},
  };
  std::string sql = "SELECT ";
  for (size_t c = 0; c < cols.size(); ++c) {
    if (c > 0) sql += ", ";
    sql += cols[c].second + " AS " + cols[c].first + ", " + nullable(cols[c].second) + " AS " +
           cols[c].first + "_n";
  }
  return sql + " FROM range(" + n + ") t(i)";
}

TEST(ParquetDuckDbTest, TypeMatrixAcrossCodecsAndPageVersions) {
  TempDir dir;
  DuckDbOracle duck;
  const std::vector<std::string> codecs = {"uncompressed", "snappy",  "gzip",
                                           "zstd",         "lz4_raw", "brotli"};
  int files = 0;
  int64_t rows = 0;
  for (const std::string& version : {"V1", "V2"}) {
    for (const std::string& codec : codecs) {
      std::string path = dir.path() + "/m_" + version + "_" + codec + ".parquet";
      std::string options =
          "COMPRESSION " + codec + ", PARQUET_VERSION " + version + ", ROW_GROUP_SIZE 700";
      if (codec == "brotli") {
        // Brotli is not available: the error names the codec.
        ASSERT_OK(duck.Query("COPY (SELECT 1 AS a) TO " + DuckDbOracle::Quote(path) +
                             " (FORMAT parquet, " + options + ")"));
        auto content = ReadParquetFile(path);
        EXPECT_TRUE(test::HasError(content, StatusCode::kNotSupported,
                                   {"compression codec BROTLI is not supported"}));
        continue;
      }
      rows += RoundTrip(&duck, path, MatrixSelect(700), options);
      ++files;
    }
  }
  EXPECT_EQ(files, 10);
  EXPECT_EQ(rows, 7000);
}

TEST(ParquetDuckDbTest, EveryEncodingDuckDbWrites) {
  TempDir dir;
  DuckDbOracle duck;
  const std::string select =
      "SELECT (i % 4)::INTEGER AS a, 'v' || (i % 3)::VARCHAR AS s, "
      "CASE WHEN i % 2 = 0 THEN NULL ELSE i END AS n, md5(i::VARCHAR) AS h, "
      "CASE WHEN i % 3 = 0 THEN NULL ELSE md5(i::VARCHAR) END AS hn, i::DOUBLE / 3 AS d, "
      "(i / 7)::FLOAT AS f, i * 1000003 AS big FROM range(30000) t(i)";
  std::set<std::string> encodings;
  for (const std::string& version : {"V1", "V2"}) {
    std::string path = dir.path() + "/enc_" + version + ".parquet";
    EXPECT_EQ(RoundTrip(&duck, path, select, "ROW_GROUP_SIZE 20000, PARQUET_VERSION " + version),
              30000);
    auto meta = duck.Query(
        "SELECT DISTINCT unnest(string_split(encodings, ', ')) FROM "
        "parquet_metadata(" +
        DuckDbOracle::Quote(path) + ")");
    ASSERT_OK(meta);
    for (const auto& row : *meta) encodings.insert(row[0].value_or(""));
  }
  for (const char* e : {"PLAIN", "RLE_DICTIONARY", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY",
                        "BYTE_STREAM_SPLIT"}) {
    EXPECT_EQ(encodings.count(e), 1u) << e << " not covered";
  }
}

TEST(ParquetDuckDbTest, NestedNulls) {
  TempDir dir;
  DuckDbOracle duck;
  const std::string path = dir.path() + "/a.parquet";
  EXPECT_EQ(RoundTrip(&duck, path,
                      "SELECT [{'a': NULL::INT, 'b': 1}, NULL, {'a': 2, 'b': NULL}] AS l, "
                      "{'x': NULL::INT, 'y': [NULL::INT]} AS s UNION ALL SELECT NULL, NULL "
                      "UNION ALL SELECT [], {'x': 1, 'y': NULL}",
                      ""),
            3);
  // Nulls at each nesting depth, as written: a null list element, null struct fields, a null
  // list and struct, an empty list, a list holding a null.
  ASSERT_OK_AND_ASSIGN(auto content, ReadParquetFile(path));
  ASSERT_EQ(content.rows.size(), 3u);
  std::vector<const ValueList*> rows;
  for (const Value& row : content.rows) rows.push_back(&row.list());
  auto find = [&](auto pred) -> const ValueList* {
    for (const ValueList* r : rows) {
      if (pred(*r)) return r;
    }
    return nullptr;
  };
  const ValueList* all_null = find([](const ValueList& r) { return r[0].is_null(); });
  ASSERT_NE(all_null, nullptr);
  EXPECT_TRUE((*all_null)[1].is_null());
  const ValueList* three =
      find([](const ValueList& r) { return !r[0].is_null() && r[0].list().size() == 3; });
  ASSERT_NE(three, nullptr);
  const ValueList& l = (*three)[0].list();
  EXPECT_TRUE(l[0].list()[0].is_null());
  EXPECT_FALSE(l[0].list()[1].is_null());
  EXPECT_TRUE(l[1].is_null());
  EXPECT_TRUE(l[2].list()[1].is_null());
  const ValueList& s = (*three)[1].list();
  EXPECT_TRUE(s[0].is_null());
  ASSERT_EQ(s[1].list().size(), 1u);
  EXPECT_TRUE(s[1].list()[0].is_null());
  const ValueList* empty =
      find([](const ValueList& r) { return !r[0].is_null() && r[0].list().empty(); });
  ASSERT_NE(empty, nullptr);
  EXPECT_FALSE((*empty)[1].list()[0].is_null());
  EXPECT_TRUE((*empty)[1].list()[1].is_null());
}

}  // namespace
}  // namespace sluice::parquet
