// catalog_bench: `get table` and `create table` through each catalog (issue 35).
//
//   catalog_bench [--rows N] [--dir DIR]
//
// N `get table` calls (default 10,000) and N / 10 `create table` calls (1,000) through the public
// sluice::Catalog::Open(options) of each catalog, one caller, one call at a time:
//
//   filesystem   metastore=filesystem, a warehouse under DIR
//   jdbc_sqlite  metastore=jdbc, uri=jdbc:sqlite:DIR/jdbc.sqlite
//   jdbc_postgres  the same on PostgreSQL, when bench/run.sh hands over a server in
//                SLUICE_BENCH_POSTGRES_URI (scripts/postgres.sh on port 18251)
//   rest         metastore=rest against Sluice's REST catalog server (RestCatalogServer, what
//                `sluice serve` runs for its rest_catalog section), started in this process on
//                127.0.0.1:18250 over a filesystem catalog under DIR, with a bearer token
//   java_rest    the same client against Java's test REST server (RESTCatalogServer of
//                paimon-core 1.4.2's test jar), which bench/java CatalogBench runs
//
// The tables are id BIGINT, v STRING (append, Paimon's defaults), bench.t0 .. bench.t<N/10 - 1>;
// the gets go over them round-robin. Each catalog is warmed up first (database "warm", a fifth of
// the calls), as the JVM's side is.
//
// Server against server, the same client against both: bench/java CatalogBench starts Java's
// server in one JVM and drives both servers with Java's own client (RESTCatalog,
// cache-enabled=false so every getTable reaches the server), Java's server first; then, while
// that JVM keeps its server up, Sluice's client drives both (Sluice's server first).
//
// vs_java_rest is Sluice's server's get-table rate over Java's server's, both measured with
// SLUICE'S client (>1: Sluice's server is faster); vs_java_rest_create the same for create table.
// Why not Java's client: it keeps its connection alive, and both servers write a response's
// headers and body as two segments with Nagle's algorithm on, so every getTable through it waits
// for the client's delayed ACK (~40 ms, seen with strace on both servers): its get rates measure
// that timer, not the servers. Sluice's client (libcurl, TCP_NODELAY, a connection per call) does
// not meet it. Java's client's figures are printed too (java_client_* keys, and its ratios
// vs_java_rest_java_client / vs_java_rest_create_java_client), with N / 10 gets, as each costs
// ~40 ms. Rates are wall clock (the work is split between client and server processes).
//
// The last line: "RESULT rest_get_per_s=.. rest_create_per_s=.. jdbc_sqlite_get_per_s=..
// jdbc_sqlite_create_per_s=.. [jdbc_postgres_...] filesystem_get_per_s=..
// filesystem_create_per_s=.. java_rest_get_per_s=.. java_rest_create_per_s=.. vs_java_rest=..
// vs_java_rest_create=.. java_client_sluice_get_per_s=.. java_client_java_get_per_s=..
// vs_java_rest_java_client=.. vs_java_rest_create_java_client=..", rest_* (Sluice's server) and
// java_rest_* (Java's server) with Sluice's client.

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.h"
#include "peers_rows.h"
#include "sluice/catalog.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/rest/rest_catalog_server.h"
#include "sluice/catalog/rest/rest_tokens.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::Now;
using bench::Since;

// The ports of this benchmark (18250-18270): Sluice's REST server; bench/run.sh starts PostgreSQL
// on 18251.
constexpr int kRestPort = 18250;
// A bearer token both servers accept (at least RestTokens::kMinTokenLength characters).
constexpr const char* kToken = "catalog-bench-token-0123456789abcdef";
// The catalog name the REST clients send to /v1/config (Java's server answers only for its own).
constexpr const char* kRestWarehouse = "bench";

struct Rates {
  double create_per_s = 0;
  double get_per_s = 0;
};

NewTableSpec Spec() {
  NewTableSpec spec;
  spec.columns = {bench::Field(0, "id", DataType::BigInt()),
                  bench::Field(1, "v", DataType::String())};
  return spec;
}

// Creates `database`, `creates` tables in it, then `gets` get-table calls over them round-robin;
// the rates of the two loops (wall clock).
Rates Run(const Catalog& catalog, const std::string& database, int64_t creates, int64_t gets,
          const std::string& what) {
  Check(catalog.CreateDatabase(database), (what + ": create database").c_str());
  const NewTableSpec spec = Spec();
  std::vector<std::string> names;
  names.reserve(static_cast<size_t>(creates));
  for (int64_t i = 0; i < creates; ++i) names.push_back(database + ".t" + std::to_string(i));
  Clock start = Now();
  for (const std::string& name : names) {
    Check(catalog.CreateTable(name, spec), (what + ": create " + name).c_str());
  }
  const double create_s = Since(start).wall;
  start = Now();
  for (int64_t i = 0; i < gets; ++i) {
    Check(catalog.GetTable(names[static_cast<size_t>(i % creates)]).status(),
          (what + ": get table").c_str());
  }
  const double get_s = Since(start).wall;
  return Rates{static_cast<double>(creates) / create_s, static_cast<double>(gets) / get_s};
}

// A warm-up (database prefix + "warm", a fifth of the calls), then the measured run (database
// prefix + "bench"); prints the rates under `what`.
Rates Measure(const Catalog& catalog, const std::string& prefix, int64_t creates, int64_t gets,
              const std::string& what) {
  Run(catalog, prefix + "warm", std::max<int64_t>(1, creates / 5), gets / 5, what);
  const Rates rates = Run(catalog, prefix + "bench", creates, gets, what);
  std::printf("%-44s create %8.0f tables/s   get %8.0f tables/s\n", what.c_str(),
              rates.create_per_s, rates.get_per_s);
  std::fflush(stdout);
  return rates;
}

Catalog Open(const std::map<std::string, std::string>& options, const std::string& what) {
  Result<Catalog> catalog = Catalog::Open(options);
  Check(catalog.status(), (what + ": open").c_str());
  return std::move(catalog).value();
}

std::map<std::string, std::string> RestOptions(const std::string& uri) {
  return {{"metastore", "rest"},
          {"uri", uri},
          {"token.provider", "bear"},
          {"token", kToken},
          {"warehouse", kRestWarehouse}};
}

std::string Quote(const std::string& arg) { return "'" + arg + "'"; }

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "catalog_bench", 10000);
  const int64_t gets = args.rows;
  const int64_t creates = std::max<int64_t>(1, args.rows / 10);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  std::printf(
      "%lld get table + %lld create table (id BIGINT, v STRING) per catalog, one caller; after a\n"
      "warm-up of a fifth of that; wall-clock rates; under %s\n",
      static_cast<long long>(gets), static_cast<long long>(creates), args.dir.c_str());
  std::fflush(stdout);

  // Sluice's REST server, in this process on its own threads: the server `sluice serve` runs
  // for a rest_catalog section, over a filesystem catalog.
  auto backing = CreateCatalog({{"warehouse", args.dir + "/rest"}});
  Check(backing.status(), "REST server's catalog");
  auto tokens = rest::RestTokens::Parse(kToken, "catalog_bench");
  Check(tokens.status(), "tokens");
  rest::RestCatalogServerOptions server_options;
  server_options.port = kRestPort;
  auto server = rest::RestCatalogServer::Start(*backing, *tokens, server_options);
  Check(server.status(), "start Sluice's REST server");
  const std::string sluice_uri = (*server)->uri();

  // Java: its server, then both servers through Java's client; it then keeps its server up
  // until `done` exists, for Sluice's client.
  const std::string done = args.dir + "/java.done";
  const int64_t java_gets = std::max<int64_t>(1, gets / 10);
  const std::string java_args = Quote(sluice_uri) + " " + Quote(kToken) + " " +
                                Quote(args.dir + "/java_server") + " " + std::to_string(java_gets) +
                                " " + std::to_string(creates) + " " + Quote(done);
  const std::string log = args.dir + "/java.log";
  const std::string command = bench::PeersJavaCommand("CatalogBench", java_args, log);
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) Die("cannot start: " + command);
  std::map<std::string, Rates> java_client;
  std::string java_uri;
  char line[512];
  while (java_uri.empty() && std::fgets(line, sizeof(line), out) != nullptr) {
    char server_name[16];
    long long n_creates = 0, n_gets = 0;
    double create_s = 0, get_s = 0;
    char uri[256];
    if (std::sscanf(line, "java_client server=%15s creates=%lld create_s=%lf gets=%lld get_s=%lf",
                    server_name, &n_creates, &create_s, &n_gets, &get_s) == 5) {
      java_client[server_name] =
          Rates{static_cast<double>(n_creates) / create_s, static_cast<double>(n_gets) / get_s};
      std::printf("%-44s create %8.0f tables/s   get %8.0f tables/s (%lld gets)\n",
                  (std::string("rest, java client, ") + server_name + "'s server").c_str(),
                  java_client[server_name].create_per_s, java_client[server_name].get_per_s,
                  n_gets);
      std::fflush(stdout);
    } else if (std::sscanf(line, "java_server uri=%255s", uri) == 1) {
      java_uri = uri;
    }
  }
  if (java_uri.empty() || java_client.count("java") == 0 || java_client.count("sluice") == 0) {
    pclose(out);
    Die("java failed (" + log + ")");
  }
  // Sluice's client against both servers, prefixed database names: Java's client made
  // warm / bench on both already.
  const Rates rest = Measure(Open(RestOptions(sluice_uri), "rest"), "sluice_", creates, gets,
                             "rest, sluice client, sluice's server");
  const Rates java_rest = Measure(Open(RestOptions(java_uri), "java rest"), "sluice_", creates,
                                  gets, "rest, sluice client, java's server");
  std::ofstream(done).put('\n');
  while (std::fgets(line, sizeof(line), out) != nullptr) {
  }
  if (pclose(out) != 0) Die("java failed (" + log + ")");
  (*server)->Stop();

  const Rates filesystem = Measure(Open({{"warehouse", args.dir + "/filesystem"}}, "filesystem"),
                                   "", creates, gets, "filesystem");
  const Rates sqlite = Measure(Open({{"metastore", "jdbc"},
                                     {"uri", "jdbc:sqlite:" + args.dir + "/jdbc.sqlite"},
                                     {"warehouse", args.dir + "/jdbc_sqlite"}},
                                    "jdbc sqlite"),
                               "", creates, gets, "jdbc sqlite");
  std::optional<Rates> postgres;
  if (const char* uri = std::getenv("SLUICE_BENCH_POSTGRES_URI"); uri != nullptr && *uri != 0) {
    // A catalog key of this run's own: the server may hold an earlier run's rows.
    postgres = Measure(Open({{"metastore", "jdbc"},
                             {"uri", uri},
                             {"jdbc.user", "sluice"},
                             {"catalog-key", "catalog_bench_" + std::to_string(getpid())},
                             {"warehouse", args.dir + "/jdbc_postgres"}},
                            "jdbc postgres"),
                       "", creates, gets, "jdbc postgres");
  }

  std::printf(
      "RESULT rest_get_per_s=%.0f rest_create_per_s=%.0f jdbc_sqlite_get_per_s=%.0f "
      "jdbc_sqlite_create_per_s=%.0f ",
      rest.get_per_s, rest.create_per_s, sqlite.get_per_s, sqlite.create_per_s);
  if (postgres) {
    std::printf("jdbc_postgres_get_per_s=%.0f jdbc_postgres_create_per_s=%.0f ",
                postgres->get_per_s, postgres->create_per_s);
  }
  const Rates& java_client_sluice = java_client["sluice"];
  const Rates& java_client_java = java_client["java"];
  std::printf(
      "filesystem_get_per_s=%.0f filesystem_create_per_s=%.0f java_rest_get_per_s=%.0f "
      "java_rest_create_per_s=%.0f vs_java_rest=%.2f vs_java_rest_create=%.2f "
      "java_client_sluice_get_per_s=%.1f java_client_java_get_per_s=%.1f "
      "vs_java_rest_java_client=%.2f vs_java_rest_create_java_client=%.2f\n",
      filesystem.get_per_s, filesystem.create_per_s, java_rest.get_per_s, java_rest.create_per_s,
      rest.get_per_s / java_rest.get_per_s, rest.create_per_s / java_rest.create_per_s,
      java_client_sluice.get_per_s, java_client_java.get_per_s,
      java_client_sluice.get_per_s / java_client_java.get_per_s,
      java_client_sluice.create_per_s / java_client_java.create_per_s);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
