#include "sluice/service/service_config.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace sluice::service {
namespace {

using test::HasError;

constexpr std::string_view kConfig = R"(
metrics: {port: 9300, host: 0.0.0.0}
log: {format: json}
shutdown_timeout: 20 s
jobs:
  - name: shop-cdc
    action: kafka_sync_database
    args: [--warehouse, /lake, --database, shop, --kafka_conf, "topic=shop",
           --kafka_conf, properties.bootstrap.servers=127.0.0.1:9092,
           --kafka_conf, value.format=debezium-json,
           --kafka_conf, scan.startup.mode=earliest-offset]
    mode: continuous
  - name: shop-expire
    action: expire-snapshots
    args: [--warehouse, /lake, --database, shop, --table, orders]
    every: 10m
    restart_backoff: {initial: 2 s, max: 1 min}
)";

TEST(ServiceConfigTest, ReadsEveryKey) {
  Result<ServiceConfig> config = ParseServiceConfig(kConfig, "sluice.yaml");
  ASSERT_TRUE(test::IsOk(config));
  EXPECT_TRUE(config->metrics.enabled);
  EXPECT_EQ(config->metrics.port, 9300);
  EXPECT_EQ(config->metrics.host, "0.0.0.0");
  EXPECT_EQ(config->log_format, LogFormat::kJson);
  EXPECT_EQ(config->shutdown_timeout, std::chrono::seconds(20));
  ASSERT_EQ(config->jobs.size(), 2u);
  const JobConfig& cdc = config->jobs[0];
  EXPECT_EQ(cdc.name, "shop-cdc");
  EXPECT_EQ(cdc.action, "kafka_sync_database");
  EXPECT_TRUE(cdc.continuous);
  ASSERT_EQ(cdc.args.size(), 12u);
  EXPECT_EQ(cdc.args[5], "topic=shop");
  EXPECT_EQ(cdc.args[7], "properties.bootstrap.servers=127.0.0.1:9092");
  EXPECT_EQ(cdc.restart_initial, std::chrono::seconds(1));
  EXPECT_EQ(cdc.restart_max, std::chrono::minutes(5));
  const JobConfig& expire = config->jobs[1];
  EXPECT_FALSE(expire.continuous);
  EXPECT_EQ(expire.every, std::chrono::minutes(10));
  EXPECT_EQ(expire.restart_initial, std::chrono::seconds(2));
  EXPECT_EQ(expire.restart_max, std::chrono::minutes(1));
}

TEST(ServiceConfigTest, DefaultsWithOnlyJobs) {
  Result<ServiceConfig> config = ParseServiceConfig(R"(
jobs:
  - {name: a, action: kafka_sync_table, args: [--warehouse, /w, --database, d, --table, t,
     --kafka_conf, topic=x, --kafka_conf, value.format=canal-json,
     --kafka_conf, scan.startup.mode=latest-offset,
     --kafka_conf, properties.bootstrap.servers=127.0.0.1:1], mode: continuous}
)",
                                                    "c.yaml");
  ASSERT_TRUE(test::IsOk(config));
  EXPECT_EQ(config->metrics.port, 9249);
  EXPECT_EQ(config->metrics.host, "127.0.0.1");
  EXPECT_EQ(config->log_format, LogFormat::kText);
  EXPECT_EQ(config->shutdown_timeout, std::chrono::seconds(30));
}

// Each bad config names the file, the job and the key, with the line where it can.
TEST(ServiceConfigTest, ErrorsNameTheFileTheJobAndTheKey) {
  struct Case {
    std::string_view yaml;
    std::initializer_list<std::string_view> words;
  };
  const Case cases[] = {
      {"jobs: [{name: a, action: no_such_action, args: [], mode: continuous}]",
       {"c.yaml", "jobs[0] 'a'", "key 'action'", "no_such_action", "kafka_sync_database"}},
      {"jobs:\n  - name: a\n    action: kafka_sync_table\n    mode: sometimes\n",
       {"c.yaml", "jobs[0] 'a'", "key 'mode'", "(line 4)", "sometimes"}},
      {"jobs:\n  - name: a\n    action: kafka_sync_table\n    every: 10 parsecs\n",
       {"jobs[0] 'a'", "key 'every'", "10 parsecs"}},
      {"jobs:\n  - name: a\n    action: kafka_sync_table\n", {"jobs[0] 'a'", "key 'mode'"}},
      {"jobs:\n  - name: a\n    action: kafka_sync_table\n    mode: continuous\n    every: 1s\n",
       {"jobs[0] 'a'", "not both"}},
      {"jobs:\n  - name: a\n    action: kafka_sync_table\n    mode: continuous\n    tpyo: 1\n",
       {"jobs[0] 'a'", "key 'tpyo'", "(line 5)", "unknown key"}},
      {"jobs:\n  - {action: kafka_sync_table, mode: continuous}\n", {"jobs[0]", "key 'name'"}},
      {"jobs:\n  - {name: a, action: expire_tags, args: [--warehouse, /w, --database, d, "
       "--table, t], every: 1 h}\n"
       "  - {name: a, action: expire_tags, args: [--warehouse, /w, --database, d, "
       "--table, t], every: 1 h}\n",
       {"two jobs are named 'a'"}},
      {"jobs:\n  - {name: a, action: kafka_sync_table, mode: continuous, args: [--warehouse, "
       "/w]}\n",
       {"jobs[0] 'a'", "key 'args'", "--kafka_conf"}},
      {"jobs:\n  - {name: a, action: expire_snapshots, every: 1 h,\n"
       "     args: [--warehouse, /w, --database, d, --table, t, --retain_max, many]}\n",
       {"jobs[0] 'a'", "key 'args'", "(line 3)", "expire_snapshots", "retain_max", "many"}},
      {"jobs:\n  - {name: a, action: expire_snapshots, mode: continuous,\n"
       "     args: [--warehouse, /w, --database, d, --table, t]}\n",
       {"jobs[0] 'a'", "key 'mode'", "every"}},
      {"jobs:\n  - {name: a, action: kafka_sync_table, every: 1 h, args: []}\n",
       {"jobs[0] 'a'", "key 'every'", "mode: continuous"}},
      {"jobs:\n  - {name: a, action: kafka_sync_table, mode: continuous, args: x}\n",
       {"jobs[0] 'a'", "key 'args'", "a list"}},
      {"metrics: {port: 70000}\njobs: []\n", {"metrics", "key 'port'", "70000"}},
      {"metrics: {prot: 1}\njobs: []\n", {"metrics", "key 'prot'"}},
      {"log: {format: xml}\njobs: []\n", {"log", "key 'format'", "xml"}},
      {"jobz: []\n", {"key 'jobz'", "unknown key"}},
      {"metrics: {port: 1}\n", {"key 'jobs'", "a list of jobs"}},
      {"jobs: [\n", {"c.yaml", "not valid YAML"}},
      {"- just\n- a list\n", {"c.yaml", "expected a map"}},
      {"jobs:\n  - name: a\n    action: kafka_sync_table\n    mode: continuous\n"
       "    restart_backoff: {initial: 1 min, max: 1 s}\n",
       {"jobs[0] 'a': restart_backoff", "key 'max'", "shorter"}},
  };
  for (const Case& c : cases) {
    EXPECT_TRUE(
        HasError(ParseServiceConfig(c.yaml, "c.yaml"), StatusCode::kInvalidArgument, c.words))
        << c.yaml;
  }
}

TEST(ServiceConfigTest, LoadNamesAFileItCannotRead) {
  EXPECT_TRUE(HasError(LoadServiceConfig("/nonexistent/sluice.yaml"), StatusCode::kIOError,
                       {"/nonexistent/sluice.yaml"}));
}

}  // namespace
}  // namespace sluice::service
