// Two `sluice write --writers 2 --writer-id I` processes writing one dynamic-bucket table at
// once, round after round (each round new processes: writers restarted between commits): both
// given the same JSON lines of random upserts and deletes over several partitions, each writes
// the keys routed to it. After every round the rows `sluice read` returns equal a model, each
// key lives in exactly one bucket of its partition, owned by the writer its key routes to, and
// `sluice check` is clean.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "sluice/index/bucket_assigner.h"
#include "table/dynamic_bucket_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using nlohmann::json;

std::vector<std::string> SortedLines(const std::string& jsonl) {
  std::vector<std::string> rows;
  std::istringstream in(jsonl);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) rows.push_back(json::parse(line).dump());
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(SluiceDynamicBucketWritersCliTest, TwoWriterProcessesAtOnceKeepEachKeyInOneBucket) {
  test::TempDir dir;
  const std::string wh = " --warehouse " + dir.path();
  ASSERT_EQ(test::RunSluiceMergingStderr("create-database db" + wh).exit_code, 0);
  test::CommandResult r = test::RunSluiceMergingStderr(
      "create-table db.t" + wh +
      " --column 'p INT NOT NULL' --column 'k BIGINT NOT NULL' --column 'v BIGINT'"
      " --primary-key p,k --partition p --option dynamic-bucket.target-row-num=30");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string path = dir.path() + "/db.db/t";

  std::mt19937 rng(1102);
  std::map<std::pair<int32_t, int64_t>, int64_t> model;
  for (int round = 0; round < 4; ++round) {
    const std::string input = dir.path() + "/round" + std::to_string(round) + ".jsonl";
    {
      std::ofstream out(input);
      for (int i = 0; i < 300; ++i) {
        const auto p = static_cast<int32_t>(rng() % 4);
        const auto k = static_cast<int64_t>(rng() % 150);
        if (rng() % 7 == 0) {
          out << json{{"_ROW_KIND", "-D"}, {"p", p}, {"k", k}}.dump() << "\n";
          model.erase({p, k});
        } else {
          const auto v = static_cast<int64_t>(rng() % 100000);
          out << json{{"p", p}, {"k", k}, {"v", v}}.dump() << "\n";
          model[{p, k}] = v;
        }
      }
    }
    std::string both;
    for (int id = 0; id < 2; ++id) {
      const std::string log = dir.path() + "/w" + std::to_string(id) + ".log";
      both += "(" + test::BinaryDir() + "/sluice write db.t" + wh + " --input " + input +
              " --writers 2 --writer-id " + std::to_string(id) + " >" + log + " 2>&1; echo w" +
              std::to_string(id) + "=$?) & ";
    }
    r = test::RunShellCommand(both + "wait");
    EXPECT_NE(r.out.find("w0=0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("w1=0"), std::string::npos) << r.out;

    std::vector<std::string> expected;
    for (const auto& [key, v] : model) {
      expected.push_back(json{{"p", key.first}, {"k", key.second}, {"v", v}}.dump());
    }
    std::sort(expected.begin(), expected.end());
    r = test::RunSluice("read db.t" + wh + " --format jsonl");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(SortedLines(r.out), expected) << "round " << round;

    const int32_t assigners = 2;
    for (const auto& [key, buckets] : test::BucketsOfKeys(path)) {
      ASSERT_EQ(buckets.size(), 1u) << key.first << "/" << key.second;
      EXPECT_EQ(
          *buckets.begin() % assigners,
          ComputeAssigner(test::PartitionHash(key.first), test::KeyHash(key.second), 2, assigners))
          << key.first << "/" << key.second;
    }
    r = test::RunSluiceMergingStderr("check db.t" + wh);
    EXPECT_EQ(r.exit_code, 0) << "round " << round << ": " << r.out;
  }

  // The writer flags are for dynamic-bucket tables; an id outside the writers is refused.
  r = test::RunSluiceMergingStderr("write db.t" + wh + " --input " + dir.path() +
                                   "/round0.jsonl --writers 2 --writer-id 2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("writer 2 of 2 does not exist"), std::string::npos) << r.out;
  ASSERT_EQ(test::RunSluiceMergingStderr("create-table db.f" + wh +
                                         " --column 'k BIGINT NOT NULL' --primary-key k"
                                         " --option bucket=2")
                .exit_code,
            0);
  const std::string one = dir.path() + "/one.jsonl";
  std::ofstream(one) << "{\"k\": 1}\n";
  r = test::RunSluiceMergingStderr("write db.f" + wh + " --input " + one +
                                   " --writers 2 --writer-id 0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("bucket = 2"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sluice
