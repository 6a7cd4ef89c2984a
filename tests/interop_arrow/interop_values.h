// Helpers of the Arrow / pypaimon interop tests: decoding the canonical JSON that the Python
// scripts print (python/canonical.py) into Sluice Values, reading a data file whole through a
// Sluice codec, running the pinned Python environments, and the case ledger that counts what was
// compared and checks the expected-failure list.
//
// Thread safety: single-threaded test helpers.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sluice/base/json_reader.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice::test {

struct CanonicalOptions {
  // Canonical TIME values are nanoseconds of the day; ORC has no TIME type (Paimon stores the
  // milliseconds of the day as an INT), so ORC files read in pyarrow give milliseconds.
  int64_t time_unit_nanos = 1;
};

// Decodes one canonical value (canonical.py) as a value of `type`. Errors name the value.
Result<Value> DecodeCanonical(const Json& json, const DataType& type,
                              const CanonicalOptions& options = {});

// Scalar values inside `v` (nulls included; a null or empty nested value counts as one).
int64_t CountLeafValues(const Value& v, const DataType& type);

// One line per JSON document of a JSON-lines file.
Result<std::vector<Json>> ReadJsonLines(const std::string& path);

struct FileRows {
  DataTypePtr type;
  std::vector<Value> rows;  // ROW values of `type`
};

// Reads a Parquet or ORC file (by its extension) whole with Sluice's codec, in the file's own
// schema as Sluice maps it.
Result<FileRows> ReadDataFile(const std::string& path);

// The interpreter of a pinned environment (scripts/setup.sh): $<env_var> when set, else
// build/pyenv/<name>/bin/python in the source tree. Fails the test when it is missing.
std::string PythonOf(const std::string& name, const char* env_var);
// Runs `python script args...` (script under tests/interop_arrow/python), stdout and stderr
// merged into the returned text; fails the current test when it exits non-zero.
std::string RunPythonScript(const std::string& python, const std::string& script,
                            const std::vector<std::string>& args);

// The outcome of one compared unit (a file, a table) and the ledger of all of them.
class CaseLedger {
 public:
  // `expected_failures`: case name -> reason. A listed case must fail (else it is reported as
  // fixed, so that the list shrinks); an unlisted case must pass.
  CaseLedger(std::string title, std::map<std::string, std::string> expected_failures);

  // Records one case: values compared, mismatches (each message kept for the first few), or a
  // whole-case error.
  void AddCase(const std::string& name, int64_t values, const std::vector<std::string>& mismatches,
               const std::string& error = "");

  // Prints the counts and the expected-failure list; adds a test failure for each unexpected
  // mismatch, error, or expected failure that now passes.
  void Report() const;

  int64_t cases() const { return static_cast<int64_t>(cases_.size()); }
  int64_t values() const { return values_; }

 private:
  struct Case {
    std::string name;
    int64_t values = 0;
    int64_t mismatches = 0;
    std::string error;
    std::vector<std::string> first_mismatches;
  };
  std::string title_;
  std::map<std::string, std::string> expected_failures_;
  std::vector<Case> cases_;
  int64_t values_ = 0;
};

// Compares rows decoded from canonical JSON with the rows Sluice has, cell by cell in order.
// Returns the leaf values compared; appends a message per mismatching cell to `mismatches`.
int64_t CompareRows(const DataType& row_type, const std::vector<Value>& expected,
                    const std::vector<Value>& actual, std::vector<std::string>* mismatches);

// Sorted JSON renderings (value_json.h) of rows: for comparing row sets whose order is free.
std::vector<std::string> SortedRowJson(const DataType& row_type, const std::vector<Value>& rows);

}  // namespace sluice::test
