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
// Server against server, the same client against both, three clients:
//   - Java's own client (RESTCatalog, cache-enabled=false so every getTable reaches the server):
//     bench/java CatalogBench starts Java's server in one JVM and drives both servers with it,
//     Java's server first. It keeps its connection alive, and both servers write a response's
//     headers and body as two segments with Nagle's algorithm on, so every getTable through it
//     waits for the client's delayed ACK (~40 ms; seen with strace, on both servers): its get
//     rates measure that timer, not the servers, hence N / 10 gets. Keys java_client_*,
//     vs_java_rest_java_client, vs_java_rest_create_java_client.
//   - Sluice's client (RestCatalog: libcurl, TCP_NODELAY, a new connection per call), while the
//     JVM keeps its server up: rest_* (Sluice's server) and java_rest_* (Java's server),
//     vs_java_rest_sluice_client and vs_java_rest_create_sluice_client. A connection per call
//     makes this a measure of the servers' connection handling as much as of their requests.
//   - A raw HTTP/1.1 client (RawHttpClient below): GET table on one kept-alive connection, as
//     Java's and pypaimon's clients talk, without the 40 ms timer and without client-side work:
//     the servers alone. vs_java_rest is this one: Sluice's server's get-table rate over Java's
//     (>1: Sluice's server is faster). Keys raw_http_sluice_get_per_s, raw_http_java_get_per_s.
// Rates are wall clock (the work is split between client and server processes).
//
// Creates write files: Sluice's local file system fsyncs each file and its directory (crash
// safety), Java's LocalFileIO does not, and Java's server keeps its catalog in memory; so create
// rates follow the disk (and whatever else writes to it on a shared machine) more than the code.
//
// The last line: "RESULT rest_get_per_s=.. rest_create_per_s=.. jdbc_sqlite_get_per_s=..
// jdbc_sqlite_create_per_s=.. [jdbc_postgres_get_per_s=.. jdbc_postgres_create_per_s=..]
// filesystem_get_per_s=.. filesystem_create_per_s=.. java_rest_get_per_s=..
// java_rest_create_per_s=.. vs_java_rest_sluice_client=.. vs_java_rest_create_sluice_client=..
// java_client_sluice_get_per_s=.. java_client_java_get_per_s=.. vs_java_rest_java_client=..
// vs_java_rest_create_java_client=.. raw_http_sluice_get_per_s=.. raw_http_java_get_per_s=..
// vs_java_rest=..".

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
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

// The servers alone: GET table over one kept-alive HTTP/1.1 connection from a client doing
// nothing else (no JSON parsing, no table built), with TCP_NODELAY, and TCP_QUICKACK re-armed
// after every read so that Nagle's algorithm on the servers' side, waiting for our delayed ACK,
// does not add its ~40 ms (what Java's RESTCatalog client meets). A server that closes the
// connection (httplib closes after its keep-alive count) is reconnected, and that cost counts,
// as it would for any kept-alive client.
class RawHttpClient {
 public:
  // `uri`: "http://host:port[/]".
  explicit RawHttpClient(const std::string& uri) {
    std::string rest = uri.substr(uri.find("://") + 3);
    if (!rest.empty() && rest.back() == '/') rest.pop_back();
    const size_t colon = rest.rfind(':');
    host_ = rest.substr(0, colon);
    port_ = rest.substr(colon + 1);
  }
  ~RawHttpClient() { Close(); }
  // Connections opened so far.
  int64_t connections() const { return connections_; }
  RawHttpClient(const RawHttpClient&) = delete;
  RawHttpClient& operator=(const RawHttpClient&) = delete;

  // GET `target` with the bench's token: the status code, the body in *body. Dies when no
  // answer comes.
  int Get(const std::string& target, std::string* body) {
    const std::string request = "GET " + target + " HTTP/1.1\r\nHost: " + host_ + ":" + port_ +
                                "\r\nAuthorization: Bearer " + kToken + "\r\n\r\n";
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (fd_ < 0) Connect();
      int status = 0;
      bool close = false;
      if (Send(request) && Receive(&status, body, &close)) {
        if (close) Close();
        return status;
      }
      Close();  // the server closed an idle connection before this request: once more
    }
    Die("no answer from " + host_ + ":" + port_ + target);
  }

 private:
  void Connect() {
    addrinfo hints{};
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host_.c_str(), port_.c_str(), &hints, &found) != 0) Die("resolve " + host_);
    fd_ = socket(found->ai_family, found->ai_socktype, found->ai_protocol);
    const bool connected = fd_ >= 0 && connect(fd_, found->ai_addr, found->ai_addrlen) == 0;
    freeaddrinfo(found);
    if (!connected) Die("connect to " + host_ + ":" + port_);
    ++connections_;
    int yes = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    buffer_.clear();
  }
  bool Send(const std::string& data) {
    size_t sent = 0;
    while (sent < data.size()) {
      const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  // Reads more into buffer_; false at the end of the stream.
  bool Fill() {
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
    // Linux leaves quick-ACK mode again on its own: re-armed after every read.
    int yes = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_QUICKACK, &yes, sizeof(yes));
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }
  // One response; both servers send a Content-Length.
  bool Receive(int* status, std::string* body, bool* close) {
    size_t end;
    while ((end = buffer_.find("\r\n\r\n")) == std::string::npos) {
      if (!Fill()) return false;
    }
    std::string head = buffer_.substr(0, end);
    for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (std::sscanf(head.c_str(), "http/1.1 %d", status) != 1) Die("bad response: " + head);
    size_t length = 0;
    if (const size_t at = head.find("\r\ncontent-length:"); at != std::string::npos) {
      length = std::strtoul(head.c_str() + at + 17, nullptr, 10);
    }
    *close = head.find("\r\nconnection: close") != std::string::npos;
    while (buffer_.size() < end + 4 + length) {
      if (!Fill()) return false;
    }
    body->assign(buffer_, end + 4, length);
    buffer_.erase(0, end + 4 + length);
    return true;
  }

  std::string host_;
  std::string port_;
  int fd_ = -1;
  int64_t connections_ = 0;
  std::string buffer_;
};

// `gets` GET-table requests through RawHttpClient to the server at `uri`, over database.t0 ..
// t<tables - 1> round-robin, after a warm-up of a fifth of that; the measured rate. The path
// prefix comes from the server's /v1/config.
double RawGets(const std::string& uri, const std::string& database, int64_t tables, int64_t gets,
               const std::string& what) {
  RawHttpClient client(uri);
  std::string body;
  if (client.Get(std::string("/v1/config?warehouse=") + kRestWarehouse, &body) != 200) {
    Die(what + ": /v1/config: " + body);
  }
  const std::string key = "\"prefix\":\"";
  const size_t at = body.find(key);
  if (at == std::string::npos) Die(what + ": no prefix in /v1/config: " + body);
  const size_t from = at + key.size();
  const std::string base = "/v1/" + body.substr(from, body.find('"', from) - from) + "/databases/" +
                           database + "/tables/t";
  auto run = [&](int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      const int status = client.Get(base + std::to_string(i % tables), &body);
      if (status != 200) Die(what + ": GET table " + std::to_string(status) + ": " + body);
    }
  };
  run(gets / 5);
  const Clock start = Now();
  const int64_t connections = client.connections();
  run(gets);
  const double per_s = static_cast<double>(gets) / Since(start).wall;
  std::printf("%-44s                          get %8.0f tables/s (%lld connections)\n",
              what.c_str(), per_s, static_cast<long long>(client.connections() - connections));
  std::fflush(stdout);
  return per_s;
}

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
  const double raw_sluice = RawGets(sluice_uri, "sluice_bench", creates, gets,
                                    "rest, raw keep-alive http, sluice's server");
  const double raw_java =
      RawGets(java_uri, "sluice_bench", creates, gets, "rest, raw keep-alive http, java's server");
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
      "java_rest_create_per_s=%.0f vs_java_rest_sluice_client=%.2f "
      "vs_java_rest_create_sluice_client=%.2f ",
      filesystem.get_per_s, filesystem.create_per_s, java_rest.get_per_s, java_rest.create_per_s,
      rest.get_per_s / java_rest.get_per_s, rest.create_per_s / java_rest.create_per_s);
  std::printf(
      "java_client_sluice_get_per_s=%.1f java_client_java_get_per_s=%.1f "
      "vs_java_rest_java_client=%.2f vs_java_rest_create_java_client=%.2f ",
      java_client_sluice.get_per_s, java_client_java.get_per_s,
      java_client_sluice.get_per_s / java_client_java.get_per_s,
      java_client_sluice.create_per_s / java_client_java.create_per_s);
  std::printf("raw_http_sluice_get_per_s=%.0f raw_http_java_get_per_s=%.0f vs_java_rest=%.2f\n",
              raw_sluice, raw_java, raw_sluice / raw_java);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
