// The JDBC catalog's cases (../jdbc_catalog_cases.h) on the real servers of the `databases`
// ctest fixture: PostgreSQL 15 (scripts/postgres.sh, SLUICE_POSTGRES_PORT, default 15432;
// database and role sluice) and MariaDB 10.11 (scripts/mariadb.sh, SLUICE_MARIADB_PORT, default
// 13306; user sluice, database sluice_jdbc, created here), through libpq and MariaDB
// Connector/C, with jdbc:postgresql:// and jdbc:mysql:// uris as Java's drivers take them.
//
// The MariaDB database is utf8mb3: Java's paimon_table_properties key (four VARCHAR(255)) is
// 4,080 bytes in utf8mb4, over InnoDB's 3,072, and the server refuses the table, for Java's
// catalog as for Sluice's.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>

#include "catalog/jdbc/jdbc_catalog_cases.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/jdbc/jdbc_client_pool.h"
#include "test_util.h"

namespace sluice::test {
namespace {

std::string Port(const char* variable, const char* fallback) {
  const char* env = std::getenv(variable);
  return env != nullptr && *env != '\0' ? env : fallback;
}

JdbcBackend Postgres() {
  return {"postgres", [](const std::string&) {
            return std::map<std::string, std::string>{
                {"uri", "jdbc:postgresql://127.0.0.1:" + Port("SLUICE_POSTGRES_PORT", "15432") +
                            "/sluice"},
                {"jdbc.user", "sluice"},
                {"jdbc.password", "sluice"}};
          }};
}

JdbcBackend MariaDb() {
  return {"mariadb", [](const std::string&) {
            const std::string server =
                "jdbc:mysql://127.0.0.1:" + Port("SLUICE_MARIADB_PORT", "13306") + "/";
            // The catalog's database, created once (IF NOT EXISTS: cases run in parallel).
            static const Status created = [&] {
              auto uri = JdbcUri::Parse(server);
              if (!uri.ok()) return uri.status();
              auto connection =
                  JdbcClientPool::Connect(*uri, {{"user", "sluice"}, {"password", "sluice"}});
              if (!connection.ok()) return connection.status();
              return (*connection)
                  ->Execute("CREATE DATABASE IF NOT EXISTS sluice_jdbc CHARACTER SET utf8mb3", {})
                  .status();
            }();
            EXPECT_OK(created);
            return std::map<std::string, std::string>{{"uri", server + "sluice_jdbc"},
                                                      {"jdbc.user", "sluice"},
                                                      {"jdbc.password", "sluice"}};
          }};
}

INSTANTIATE_TEST_SUITE_P(Servers, JdbcCatalogCases, ::testing::Values(Postgres(), MariaDb()),
                         BackendName);

TEST(JdbcCatalogServer, AWrongPasswordIsRefusedWithTheUriMasked) {
  TempDir dir;
  auto uri = JdbcUri::Parse("jdbc:postgresql://127.0.0.1:" + Port("SLUICE_POSTGRES_PORT", "15432") +
                            "/sluice");
  ASSERT_OK(uri);
  // Trust authentication on loopback: a missing database is what the server refuses.
  uri->database = "no_such_database";
  auto refused = JdbcClientPool::Connect(*uri, {{"user", "sluice"}, {"password", "x"}});
  EXPECT_TRUE(HasError(refused, StatusCode::kIOError,
                       {"cannot connect to the JDBC catalog database", "no_such_database"}));
  auto maria = JdbcUri::Parse("jdbc:mariadb://127.0.0.1:" + Port("SLUICE_MARIADB_PORT", "13306") +
                              "/sluice_jdbc?password=wrong");
  ASSERT_OK(maria);
  auto denied = JdbcClientPool::Connect(*maria, {{"user", "sluice"}, {"password", "wrong"}});
  EXPECT_TRUE(HasError(denied, StatusCode::kIOError,
                       {"cannot connect to the JDBC catalog database jdbc:mariadb://127.0.0.1:",
                        "password=******"}));
  EXPECT_EQ(denied.status().message().find("wrong"), std::string::npos);
}

// The server drops the catalog's idle connection (a restart, an idle timeout): the next call
// still works, on a new connection.
TEST(JdbcCatalogServer, AConnectionTheServerDroppedIsReplaced) {
  TempDir dir;
  std::random_device random;
  const std::string name = "sluice_jdbc_" + std::to_string(random());
  std::map<std::string, std::string> options = Postgres().options(dir.path());
  options["metastore"] = "jdbc";
  options["warehouse"] = dir.path() + "/warehouse";
  options["catalog-key"] = name;
  options["jdbc.ApplicationName"] = name;
  auto catalog = CreateCatalog(options);
  ASSERT_OK(catalog);
  ASSERT_OK((*catalog)->CreateDatabase("db", false));

  auto uri = JdbcUri::Parse(options["uri"]);
  ASSERT_OK(uri);
  auto admin = JdbcClientPool::Connect(*uri, {{"user", "sluice"}, {"password", "sluice"}});
  ASSERT_OK(admin);
  auto killed = (*admin)->Query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ?", {name});
  ASSERT_OK(killed);
  EXPECT_GE(killed->size(), 1u);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto databases = (*catalog)->ListDatabases();
  ASSERT_OK(databases);
  EXPECT_EQ(*databases, std::vector<std::string>{"db"});
}

}  // namespace
}  // namespace sluice::test
