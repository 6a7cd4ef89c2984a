// The interop test binary: one ctest test (the Java oracle's JVM starts once per run). Prints
// the run's counts at the end, whatever passed or failed.
#include <gtest/gtest.h>

#include <cstdio>

#include "interop/interop_harness.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  const sluice::test::InteropCounts& c = sluice::test::Counts();
  std::printf(
      "interop counts: scenarios %lld, snapshots compared %lld, deltas compared %lld, reads "
      "compared %lld, files compared %lld, concurrent commits landed %lld, concurrent conflicts "
      "%lld, flink reads compared %lld, mismatches %lld, expected failures %lld\n",
      static_cast<long long>(c.scenarios), static_cast<long long>(c.snapshots_compared),
      static_cast<long long>(c.deltas_compared), static_cast<long long>(c.reads_compared),
      static_cast<long long>(c.files_compared), static_cast<long long>(c.concurrent_landed),
      static_cast<long long>(c.concurrent_conflicts), static_cast<long long>(c.flink_reads),
      static_cast<long long>(c.mismatches), static_cast<long long>(c.expected_failures));
  int stale = 0;
  for (const auto& [key, seen] : c.expected_failure_log) {
    const auto& list = sluice::test::ExpectedFailures();
    std::printf("interop expected failure: %s: %lld failed, %lld passed (%s)\n", key.c_str(),
                static_cast<long long>(seen.first), static_cast<long long>(seen.second),
                list.at(key).c_str());
    if (seen.first == 0) {
      std::printf(
          "interop: %s no longer fails: remove it from tests/interop/expected_failures.cc\n",
          key.c_str());
      ++stale;
    }
  }
  if (stale > 0) return 1;
  return result;
}
