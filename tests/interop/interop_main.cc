// The interop test binary: one ctest test (the Java oracle's JVM starts once per run). Prints
// the run's counts at the end, whatever passed or failed.
#include <gtest/gtest.h>

#include <cstdio>

#include "interop/interop_harness.h"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int result = RUN_ALL_TESTS();
  const sluice::testing::InteropCounts& c = sluice::testing::Counts();
  std::printf(
      "interop counts: scenarios %lld, snapshots compared %lld, deltas compared %lld, reads "
      "compared %lld, files compared %lld, mismatches %lld, expected failures %lld\n",
      static_cast<long long>(c.scenarios), static_cast<long long>(c.snapshots_compared),
      static_cast<long long>(c.deltas_compared), static_cast<long long>(c.reads_compared),
      static_cast<long long>(c.files_compared), static_cast<long long>(c.mismatches),
      static_cast<long long>(c.expected_failures));
  for (const auto& [name, what] : c.expected_failure_log) {
    std::printf("interop expected failure: %s: %s\n", name.c_str(), what.c_str());
  }
  return result;
}
