// The JDBC catalog on SQLite (jdbc:sqlite:PATH, a file of the case's scratch folder): the
// catalog cases (jdbc_catalog_cases.h), and the parts that need no database: the uri, the
// options, the placeholders, the lock statements.
#include <gtest/gtest.h>

#include "catalog/jdbc/jdbc_catalog_cases.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/jdbc/jdbc_catalog_options.h"
#include "sluice/catalog/jdbc/jdbc_distributed_lock_dialect.h"
#include "sluice/catalog/jdbc/jdbc_uri.h"
#include "sluice/catalog/jdbc/placeholders.h"
#include "test_util.h"

namespace sluice::test {
namespace {

JdbcBackend Sqlite() {
  return {
      "sqlite", [](const std::string& dir) {
        return std::map<std::string, std::string>{{"uri", "jdbc:sqlite:" + dir + "/catalog.db"}};
      }};
}

INSTANTIATE_TEST_SUITE_P(Sqlite, JdbcCatalogCases, ::testing::Values(Sqlite()), BackendName);

TEST(JdbcUri, ParsesTheThreeProtocols) {
  auto sqlite = JdbcUri::Parse("jdbc:sqlite:/tmp/x/catalog.db");
  ASSERT_OK(sqlite);
  EXPECT_EQ(sqlite->protocol, JdbcProtocol::kSqlite);
  EXPECT_EQ(sqlite->path, "/tmp/x/catalog.db");
  auto settings = JdbcUri::Parse("jdbc:sqlite:/tmp/x/c.db?busy_timeout=9000");
  ASSERT_OK(settings);
  EXPECT_EQ(settings->path, "/tmp/x/c.db");
  EXPECT_EQ(settings->properties.at("busy_timeout"), "9000");
  EXPECT_EQ(JdbcUri::Parse("jdbc:sqlite:file:/tmp/x/c.db?mode=ro")->path,
            "file:/tmp/x/c.db?mode=ro");

  auto pg = JdbcUri::Parse("jdbc:postgresql://db.example:15432/paimon?user=u&password=p%40ss");
  ASSERT_OK(pg);
  EXPECT_EQ(pg->protocol, JdbcProtocol::kPostgresql);
  EXPECT_EQ(pg->host, "db.example");
  EXPECT_EQ(pg->port, 15432);
  EXPECT_EQ(pg->database, "paimon");
  EXPECT_EQ(pg->properties.at("password"), "p@ss");
  EXPECT_EQ(pg->masked, "jdbc:postgresql://db.example:15432/paimon?user=u&password=******");

  auto my = JdbcUri::Parse("jdbc:mysql://127.0.0.1/cat?permitMysqlScheme");
  ASSERT_OK(my);
  EXPECT_EQ(my->protocol, JdbcProtocol::kMysql);
  EXPECT_EQ(my->port, 3306);
  EXPECT_EQ(my->properties.count("permitMysqlScheme"), 1u);
  auto maria = JdbcUri::Parse("jdbc:mariadb://[::1]:13306/cat");
  ASSERT_OK(maria);
  EXPECT_EQ(maria->protocol, JdbcProtocol::kMariadb);
  EXPECT_EQ(maria->host, "::1");
  EXPECT_EQ(maria->port, 13306);
}

TEST(JdbcUri, RefusesWhatIsNotAJdbcUrlNamingItMasked) {
  EXPECT_TRUE(HasError(JdbcUri::Parse("postgresql://h/db"), StatusCode::kInvalidArgument,
                       {"catalog option uri 'postgresql://h/db' is not a JDBC URL"}));
  EXPECT_TRUE(HasError(JdbcUri::Parse("jdbc:oracle:thin:@h:1521:x"), StatusCode::kNotSupported,
                       {"JDBC protocol 'oracle' is not supported"}));
  EXPECT_TRUE(HasError(JdbcUri::Parse("jdbc:postgresql://h:99999/db?password=hunter2"),
                       StatusCode::kInvalidArgument, {"bad port '99999'", "password=******"}));
  EXPECT_EQ(JdbcUri::Parse("jdbc:postgresql://h:99999/db?password=hunter2")
                .status()
                .message()
                .find("hunter2"),
            std::string::npos);
  EXPECT_TRUE(HasError(JdbcUri::Parse("jdbc:sqlite:"), StatusCode::kInvalidArgument,
                       {"names no database file"}));
}

TEST(JdbcCatalogOptions, ReadsJavasOptions) {
  auto options = JdbcCatalogOptions::Parse({{"uri", "jdbc:postgresql://h/db?user=a"},
                                            {"jdbc.user", "b"},
                                            {"jdbc.password", "secret"},
                                            {"catalog-key", "k"},
                                            {"lock.enabled", "true"},
                                            {"lock-acquire-timeout", "2 min"},
                                            {"lock-check-max-sleep", "500ms"}},
                                           /*object_store_warehouse=*/false);
  ASSERT_OK(options);
  EXPECT_EQ(options->catalog_key, "k");
  EXPECT_EQ(options->driver_properties.at("user"), "b");  // jdbc.* over the uri's
  EXPECT_EQ(options->driver_properties.at("password"), "secret");
  EXPECT_TRUE(options->lock_enabled);
  EXPECT_EQ(options->lock_acquire_timeout.count(), 120000);
  EXPECT_EQ(options->lock_check_max_sleep.count(), 500);
  auto defaults = JdbcCatalogOptions::Parse({{"uri", "jdbc:sqlite:x.db"}}, true);
  ASSERT_OK(defaults);
  EXPECT_EQ(defaults->catalog_key, "jdbc");
  EXPECT_TRUE(defaults->lock_enabled);  // an object-store warehouse, as Java
  EXPECT_EQ(defaults->lock_acquire_timeout.count(), 8 * 60 * 1000);
  EXPECT_EQ(defaults->lock_check_max_sleep.count(), 8000);

  EXPECT_TRUE(HasError(JdbcCatalogOptions::Parse({}, false), StatusCode::kInvalidArgument,
                       {"catalog option 'uri' is required for metastore=jdbc"}));
  EXPECT_TRUE(HasError(
      JdbcCatalogOptions::Parse({{"uri", "jdbc:sqlite:x"}, {"lock.enabled", "maybe"}}, false),
      StatusCode::kInvalidArgument, {"lock.enabled", "maybe"}));
  EXPECT_TRUE(HasError(
      JdbcCatalogOptions::Parse({{"uri", "jdbc:sqlite:x"}, {"lock.type", "zookeeper"}}, false),
      StatusCode::kNotSupported, {"lock.type=zookeeper"}));
}

TEST(JdbcCatalog, ConnectionErrorsNameTheUriWithoutThePassword) {
  TempDir dir;
  auto missing = CreateCatalog({{"metastore", "jdbc"},
                                {"warehouse", dir.path()},
                                {"uri", "jdbc:sqlite:" + dir.path() + "/no/such/dir/c.db"}});
  EXPECT_TRUE(HasError(
      missing, StatusCode::kIOError,
      {"cannot open the JDBC catalog database jdbc:sqlite:" + dir.path() + "/no/such/dir/c.db"}));
  // Nothing listens on port 1.
  auto refused = CreateCatalog({{"metastore", "jdbc"},
                                {"warehouse", dir.path()},
                                {"uri", "jdbc:postgresql://127.0.0.1:1/db?password=hunter2"},
                                {"jdbc.password", "hunter3"}});
  EXPECT_TRUE(HasError(refused, StatusCode::kIOError,
                       {"cannot connect to the JDBC catalog database "
                        "jdbc:postgresql://127.0.0.1:1/db?password=******"}));
  EXPECT_EQ(refused.status().message().find("hunter"), std::string::npos);
  EXPECT_TRUE(HasError(CreateCatalog({{"metastore", "jdbc"}, {"warehouse", dir.path()}}),
                       StatusCode::kInvalidArgument, {"'uri' is required"}));
}

TEST(Placeholders, NumberedForPostgresOutsideQuotes) {
  EXPECT_EQ(NumberPlaceholders("SELECT a FROM t WHERE x = ? AND y = '?' AND z = ?"),
            "SELECT a FROM t WHERE x = $1 AND y = '?' AND z = $2");
}

TEST(JdbcDistributedLockDialect, JavasStatements) {
  auto sqlite = JdbcDistributedLockDialect::For(JdbcProtocol::kSqlite, 255);
  EXPECT_EQ(sqlite.acquire,
            "INSERT INTO paimon_distributed_locks (lock_id,expire_time_seconds) VALUES (?,?)");
  EXPECT_EQ(sqlite.release_timed_out,
            "DELETE FROM paimon_distributed_locks WHERE strftime('%s', 'now') - strftime('%s', "
            "acquired_at) > expire_time_seconds and lock_id = ?");
  EXPECT_NE(JdbcDistributedLockDialect::For(JdbcProtocol::kMariadb, 100)
                .create_table.find("lock_id VARCHAR(100) NOT NULL"),
            std::string::npos);
}

}  // namespace
}  // namespace sluice::test
