// The interop harness: the one Java oracle of the run, the `sluice` command, row comparison
// and the counts printed at the end of the run.
//
// Thread safety: not thread-safe (the tests of this binary run one at a time).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "interop/column_type.h"
#include "interop/java_oracle.h"

namespace sluice::test {

struct InteropCounts {
  int64_t scenarios = 0;
  int64_t snapshots_compared = 0;
  int64_t deltas_compared = 0;
  int64_t reads_compared = 0;
  int64_t files_compared = 0;
  int64_t mismatches = 0;
  int64_t expected_failures = 0;
  // Commits of the concurrent scenarios (concurrent_commit_test.cc): landed, or refused with a
  // conflict.
  int64_t concurrent_landed = 0;
  int64_t concurrent_conflicts = 0;
  // Reads of Flink SQL jobs compared with Sluice's (flink_test.cc).
  int64_t flink_reads = 0;
  // Expected-failure key -> {checks that failed, checks that passed}, printed with the counts.
  std::map<std::string, std::pair<int64_t, int64_t>> expected_failure_log;
};

InteropCounts& Counts();

// The Java oracle, started on first use; fails the current test (and returns null) when it
// cannot start.
JavaOracle* Oracle();
// The Flink driver (tests/interop/flink), likewise.
JavaOracle* Flink();

// `text` quoted for the shell.
std::string ShellQuote(const std::string& text);

// Runs `sluice <args>`; on a non-zero exit, fails the test with the command and its stderr
// (labelled `what`) and returns false.
bool SluiceOk(const std::string& args, const std::string& what, std::string* out = nullptr);

// Rows of a read, normalized (NormalizeRow) and sorted; nullopt with `error` set on failure.
struct ReadRows {
  std::optional<std::vector<std::string>> rows;
  std::string error;
};
ReadRows SluiceRead(const std::string& args, const std::vector<Column>& columns);
ReadRows JavaRead(const nlohmann::json& command, const std::vector<Column>& columns);
// The rows a Java program (the oracle, the Flink driver) answers `command` with.
ReadRows ProgramRead(JavaOracle* program, const nlohmann::json& command,
                     const std::vector<Column>& columns);

// Compares the readers' rows (and the model's, when given): a difference counts a mismatch and
// fails the test with the first rows that differ, unless `quiet` (for expected failures), in
// which case it only returns false.
bool SameRows(const std::string& what, const ReadRows& java, const ReadRows& sluice,
              const std::vector<std::string>* model, bool quiet = false);

// The expected-failure list (expected_failures.cc): "case/check kind" -> why Sluice does not
// read it as Java does yet. CompareRows checks a listed key quietly and counts it as an expected
// failure; a listed key none of whose checks failed in a run fails the run (interop_main.cc), so
// the list shrinks as features land.
const std::map<std::string, std::string>& ExpectedFailures();
bool CompareRows(const std::string& key, const std::string& what, const ReadRows& java,
                 const ReadRows& sluice, const std::vector<std::string>* model);

// The ids of the snapshots in a table folder's snapshot/ (main branch), sorted.
std::vector<int64_t> SnapshotIds(const std::string& table_dir);
// Data and changelog files under a table folder.
int64_t DataFileCount(const std::string& table_dir);

}  // namespace sluice::test
