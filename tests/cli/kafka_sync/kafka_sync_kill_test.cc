// Exactly once across crashes: `sluice action kafka_sync_database` killed with SIGKILL at 20
// random points while it syncs a topic of inserts, updates and deletes into two primary-key
// tables and an append table, restarted each time; at the end every table equals the model of
// every message applied once, and `sluice check` finds nothing wrong. A second run of the
// scenario starts with a job that would run forever, ended by SIGTERM: it must commit and
// exit 0.
#include <gtest/gtest.h>
#include <signal.h>

#include <map>
#include <random>

#include "kafka_sync_test_util.h"

namespace sluice {
namespace {

using test::CountSnapshots;
using test::CreateTopic;
using test::Produce;
using test::RunUntil;
using test::TempDir;
using test::UniqueTopicName;

constexpr int kKills = 20;
constexpr int kMessages = 3000;
// The parameter: whether the first run is a continuous one ended by SIGTERM.
class KafkaSyncKillTest : public ::testing::TestWithParam<bool> {};

TEST_P(KafkaSyncKillTest, EveryMessageAppliedOnceAcrossKills) {
  std::mt19937_64 rng(20261207);
  std::string topic = UniqueTopicName("kill");
  ASSERT_OK(CreateTopic(topic, 2));

  test::KillWorkload workload = test::MakeKillWorkload(kMessages, rng);
  ASSERT_OK(Produce(topic, workload.messages));

  TempDir warehouse;
  TempDir logs;
  const std::string log = logs.path() + "/sync.log";
  // Small buffers and a short interval: many commit rounds, so the kills land between and
  // inside them.
  std::vector<std::string> args = {test::BinaryDir() + "/sluice",
                                   "action",
                                   "kafka_sync_database",
                                   "--warehouse",
                                   warehouse.path(),
                                   "--database",
                                   "ods",
                                   "--kafka_conf",
                                   "properties.bootstrap.servers=" + test::KafkaBootstrap(),
                                   "--kafka_conf",
                                   "topic=" + topic,
                                   "--kafka_conf",
                                   "value.format=canal-json",
                                   "--kafka_conf",
                                   "scan.startup.mode=earliest-offset",
                                   "--commit_interval",
                                   "20 ms",
                                   "--max_buffered_bytes",
                                   "8 kb",
                                   "--stop_at_end",
                                   "true"};
  if (GetParam()) {
    // A job that does not stop at the end runs until a signal: SIGTERM commits what it read
    // and exits 0; the runs below go on from there.
    std::vector<std::string> continuous(args.begin(), args.end() - 2);
    ASSERT_EQ(RunUntil(continuous, warehouse.path(), "ods", 1, log, SIGTERM), 0)
        << test::ReadFileOrFail(log);
  }
  int killed = 0;
  for (int k = 0; k < kKills; ++k) {
    int kill_at = CountSnapshots(warehouse.path(), "ods") + 1 + static_cast<int>(rng() % 6);
    int status = RunUntil(args, warehouse.path(), "ods", kill_at, log);
    if (status == -SIGKILL) {
      ++killed;
    } else {
      ASSERT_EQ(status, 0) << test::ReadFileOrFail(log);
    }
  }
  int status = RunUntil(args, warehouse.path(), "ods", -1, log);
  ASSERT_EQ(status, 0) << test::ReadFileOrFail(log);
  std::printf("kafka sync kill: %d of %d runs killed, %d snapshots\n", killed, kKills,
              CountSnapshots(warehouse.path(), "ods"));
  EXPECT_GE(killed, kKills / 2) << "most runs should be killed before they end";

  test::ExpectTablesHoldKillWorkload(warehouse.path(), "ods", workload);
}

INSTANTIATE_TEST_SUITE_P(FirstRun, KafkaSyncKillTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "SigtermFirst" : "KillsOnly";
                         });

}  // namespace
}  // namespace sluice
