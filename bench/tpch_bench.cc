// TPC-H through `sluice sql`'s engine against DuckDB on the same data as plain Parquet files.
//
//   tpch_bench DATA_DIR QUERY_DIR WAREHOUSE [--threads N] [--runs N]
//
// DATA_DIR holds the eight tables as <table>.parquet (tpchgen-cli), QUERY_DIR q01.sql ...
// q22.sql (DuckDB's tpch extension). The first run writes the tables into Sluice append tables
// of WAREHOUSE's database `tpch` (INSERT ... SELECT from the Parquet files, through the SQL
// session), each with its Parquet file's codec as file.compression; later runs reuse them. Each
// query runs on both sides (best of --runs, default 2), the results are compared row by row
// (numbers to a relative 1e-9: sums of doubles depend on the order rows arrive in), and the process
// CPU time of each side is summed. DuckDB runs with
// --threads threads (default 1) on both sides. Prints one line per query, then
// `RESULT tpch_vs_parquet=R`: Parquet's total over Sluice's (above 1: Sluice is faster).
#include <duckdb.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/sql/duckdb_result_reader.h"
#include "sluice/sql/sql_session.h"
#include "sluice/value_json.h"

namespace {

using sluice::BatchReader;
using sluice::ColumnBatch;
using sluice::Result;
using sluice::Status;

constexpr const char* kTables[] = {"region", "nation",   "supplier", "customer",
                                   "part",   "partsupp", "orders",   "lineitem"};

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "tpch_bench: %s\n", what.c_str());
  std::exit(1);
}

template <typename T>
T Must(Result<T> result, const std::string& what) {
  if (!result.ok()) Die(what + ": " + result.status().ToString());
  return std::move(*result);
}

double CpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

double WallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) Die("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The rows of `reader`, each as a JSON object.
std::vector<std::string> Rows(BatchReader* reader) {
  std::vector<std::string> rows;
  ColumnBatch batch(reader->output_type());
  while (Must(reader->Next(&batch), "reading a result")) {
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      rows.push_back(sluice::ValueToJson(batch.GetRow(i), *reader->output_type()));
    }
  }
  return rows;
}

// Equal, or equal but for numbers within a relative 1e-9 (DECIMAL values are exact and print
// alike; only DOUBLE sums and averages may differ in their last bits).
bool SameRow(const std::string& a, const std::string& b) {
  if (a == b) return true;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    auto number_at = [](const std::string& s, size_t at) {
      return std::isdigit(static_cast<unsigned char>(s[at])) ||
             (s[at] == '-' && at + 1 < s.size() &&
              std::isdigit(static_cast<unsigned char>(s[at + 1])));
    };
    if (number_at(a, i) && number_at(b, j)) {
      char* end_a = nullptr;
      char* end_b = nullptr;
      double x = std::strtod(a.c_str() + i, &end_a);
      double y = std::strtod(b.c_str() + j, &end_b);
      if (std::fabs(x - y) > 1e-9 * std::max(std::fabs(x), std::fabs(y))) return false;
      i = end_a - a.c_str();
      j = end_b - b.c_str();
    } else if (a[i++] != b[j++]) {
      return false;
    }
  }
  return i == a.size() && j == b.size();
}

struct Timed {
  std::vector<std::string> rows;
  double cpu = 0;
  double wall = 0;
};

template <typename Run>
Timed Best(int runs, Run run) {
  Timed best;
  for (int r = 0; r < runs; ++r) {
    double cpu = CpuSeconds();
    double wall = WallSeconds();
    std::vector<std::string> rows = run();
    cpu = CpuSeconds() - cpu;
    wall = WallSeconds() - wall;
    if (r == 0 || cpu < best.cpu) {
      best.cpu = cpu;
      best.wall = wall;
    }
    best.rows = std::move(rows);
  }
  return best;
}

std::vector<std::string> RunSluice(sluice::sql::SqlSession* session, const std::string& query) {
  std::unique_ptr<BatchReader> reader = Must(session->Execute(query), "sluice: " + query);
  return reader != nullptr ? Rows(reader.get()) : std::vector<std::string>();
}

std::vector<std::string> RunDuckDb(duckdb_connection con, const std::string& query) {
  duckdb_result result;
  if (duckdb_query(con, query.c_str(), &result) != DuckDBSuccess) {
    std::string error = duckdb_result_error(&result);
    duckdb_destroy_result(&result);
    Die("duckdb: " + error);
  }
  auto reader = Must(sluice::sql::DuckDbResultReader::Make(result), "duckdb result");
  return Rows(reader.get());
}

void Load(sluice::sql::SqlSession* session, const std::string& data) {
  double wall = WallSeconds();
  Must(session->Execute("CREATE DATABASE IF NOT EXISTS tpch"), "create database");
  for (const char* table : kTables) {
    std::string parquet = "read_parquet('" + data + "/" + table + ".parquet')";
    // DuckDB names the columns and types; Sluice's table takes them as they are.
    auto described = Must(session->Execute("SELECT string_agg(column_name || ' ' || column_type, "
                                           "', ') AS columns FROM (DESCRIBE SELECT * FROM " +
                                           parquet + ")"),
                          "describe");
    std::vector<std::string> rows = Rows(described.get());
    std::string columns = rows.at(0).substr(13, rows[0].size() - 15);
    // The codec of the Parquet file (tpchgen-cli writes SNAPPY), so that both sides decompress
    // the same way and the race is between the readers.
    auto codec = Must(session->Execute("SELECT lower(min(compression)) AS codec FROM "
                                       "parquet_metadata('" +
                                       data + "/" + table + ".parquet')"),
                      "codec");
    rows = Rows(codec.get());
    std::string compression = rows.at(0).substr(11, rows[0].size() - 13);
    Must(session->Execute(std::string("CREATE TABLE tpch.") + table + " (" + columns +
                          ") WITH ('file.compression' = '" + compression + "')"),
         std::string("create ") + table);
    std::printf("%s: file.compression %s\n", table, compression.c_str());
    auto inserted = Must(
        session->Execute(std::string("INSERT INTO tpch.") + table + " SELECT * FROM " + parquet),
        std::string("insert ") + table);
    std::printf("loaded %s: %s\n", table, Rows(inserted.get()).at(0).c_str());
  }
  std::printf("load %.1f s\n", WallSeconds() - wall);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) Die("usage: tpch_bench DATA_DIR QUERY_DIR WAREHOUSE [--threads N] [--runs N]");
  std::string data = argv[1];
  std::string queries = argv[2];
  std::string warehouse = argv[3];
  int threads = 1;
  int runs = 2;
  for (int i = 4; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--threads") {
      threads = std::atoi(argv[i + 1]);
    } else if (flag == "--runs") {
      runs = std::atoi(argv[i + 1]);
    } else {
      Die("unknown flag " + flag);
    }
  }

  bool loaded = std::filesystem::exists(warehouse + "/tpch.db/lineitem");
  sluice::sql::SqlOptions options;
  options.threads = threads;
  auto session =
      Must(sluice::sql::SqlSession::Open(sluice::Catalog::Filesystem(warehouse), options), "open");
  if (!loaded) {
    Load(session.get(), data);
    session = Must(sluice::sql::SqlSession::Open(sluice::Catalog::Filesystem(warehouse), options),
                   "reopen");
  }
  Must(session->Execute("USE tpch"), "use");

  duckdb_database db;
  duckdb_connection con;
  if (duckdb_open(nullptr, &db) != DuckDBSuccess || duckdb_connect(db, &con) != DuckDBSuccess) {
    Die("cannot open DuckDB");
  }
  RunDuckDb(con, "SET threads = " + std::to_string(threads));
  for (const char* table : kTables) {
    RunDuckDb(con, std::string("CREATE VIEW ") + table + " AS SELECT * FROM read_parquet('" + data +
                       "/" + table + ".parquet')");
  }

  double sluice_cpu = 0;
  double parquet_cpu = 0;
  int mismatches = 0;
  for (int q = 1; q <= 22; ++q) {
    char name[16];
    std::snprintf(name, sizeof(name), "q%02d", q);
    std::string query = ReadFile(queries + "/" + name + ".sql");
    Timed ours = Best(runs, [&] { return RunSluice(session.get(), query); });
    Timed theirs = Best(runs, [&] { return RunDuckDb(con, query); });
    bool same = ours.rows.size() == theirs.rows.size();
    for (size_t i = 0; same && i < ours.rows.size(); ++i)
      same = SameRow(ours.rows[i], theirs.rows[i]);
    if (!same) {
      ++mismatches;
      std::printf("%s MISMATCH: sluice %zu rows, parquet %zu rows\n", name, ours.rows.size(),
                  theirs.rows.size());
      for (size_t i = 0; i < std::min<size_t>(3, std::max(ours.rows.size(), theirs.rows.size()));
           ++i) {
        std::printf("  sluice  %s\n  parquet %s\n",
                    i < ours.rows.size() ? ours.rows[i].c_str() : "-",
                    i < theirs.rows.size() ? theirs.rows[i].c_str() : "-");
      }
    }
    sluice_cpu += ours.cpu;
    parquet_cpu += theirs.cpu;
    std::printf("%s rows %zu sluice cpu %.3f s (wall %.3f) parquet cpu %.3f s (wall %.3f)%s\n",
                name, ours.rows.size(), ours.cpu, ours.wall, theirs.cpu, theirs.wall,
                same ? "" : " MISMATCH");
    std::fflush(stdout);
  }
  duckdb_disconnect(&con);
  duckdb_close(&db);
  std::printf("tpch totals: sluice cpu %.2f s, parquet cpu %.2f s, threads %d, mismatches %d\n",
              sluice_cpu, parquet_cpu, threads, mismatches);
  std::printf("RESULT tpch_vs_parquet=%.3f\n", parquet_cpu / sluice_cpu);
  return mismatches == 0 ? 0 : 1;
}
