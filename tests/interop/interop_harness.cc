#include "interop/interop_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>

#include "cli/cli_test_util.h"

namespace sluice::test {

namespace fs = std::filesystem;

InteropCounts& Counts() {
  static InteropCounts counts;
  return counts;
}

namespace {

// The program, started on first use; null (with a test failure) when it cannot start.
JavaOracle* Started(const JavaProgram& program, std::unique_ptr<JavaOracle>* running,
                    std::string* failure) {
  if (*running == nullptr && failure->empty()) {
    const std::string log =
        fs::temp_directory_path().string() + "/sluice-interop-" + program.project + ".log";
    *running = JavaOracle::Start(program, log, failure);
    if (*running == nullptr && failure->empty()) *failure = program.main_class + " did not start";
  }
  if (*running == nullptr) ADD_FAILURE() << *failure;
  return running->get();
}

}  // namespace

JavaOracle* Oracle() {
  static std::unique_ptr<JavaOracle> oracle;
  static std::string failure;
  return Started(OracleProgram(), &oracle, &failure);
}

JavaOracle* Flink() {
  static std::unique_ptr<JavaOracle> flink;
  static std::string failure;
  return Started(FlinkProgram(), &flink, &failure);
}

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

bool SluiceOk(const std::string& args, const std::string& what, std::string* out) {
  CommandResult result = RunSluice(args);
  if (out != nullptr) *out = result.out;
  if (result.exit_code == 0) return true;
  ADD_FAILURE() << what << ": sluice " << args << " exited " << result.exit_code << "\n"
                << result.err;
  return false;
}

namespace {

std::vector<std::string> NormalizeLines(const std::vector<std::string>& lines,
                                        const std::vector<Column>& columns, std::string* error) {
  std::vector<std::string> out;
  for (const std::string& line : lines) {
    if (line.empty()) continue;
    nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.is_object()) {
      *error = "not a JSON object: " + line;
      return {};
    }
    out.push_back(NormalizeRow(row, columns));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Show(const ReadRows& rows) {
  return rows.rows ? std::to_string(rows.rows->size()) + " rows" : "error: " + rows.error;
}

// The rows of `a` not in `b` (multiset difference), at most `limit`.
std::vector<std::string> Missing(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b, size_t limit) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  if (out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace

ReadRows SluiceRead(const std::string& args, const std::vector<Column>& columns) {
  ReadRows rows;
  CommandResult result = RunSluice("read " + args + " --format jsonl");
  if (result.exit_code != 0) {
    rows.error = "exit " + std::to_string(result.exit_code) + ": " + result.err;
    return rows;
  }
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < result.out.size()) {
    size_t end = result.out.find('\n', start);
    if (end == std::string::npos) end = result.out.size();
    lines.push_back(result.out.substr(start, end - start));
    start = end + 1;
  }
  std::vector<std::string> normalized = NormalizeLines(lines, columns, &rows.error);
  if (rows.error.empty()) rows.rows = std::move(normalized);
  return rows;
}

ReadRows JavaRead(const nlohmann::json& command, const std::vector<Column>& columns) {
  return ProgramRead(Oracle(), command, columns);
}

ReadRows ProgramRead(JavaOracle* program, const nlohmann::json& command,
                     const std::vector<Column>& columns) {
  ReadRows rows;
  if (program == nullptr) {
    rows.error = "the Java program did not start";
    return rows;
  }
  OracleAnswer answer = program->Call(command);
  if (!answer.ok()) {
    rows.error = answer.error();
    return rows;
  }
  std::vector<std::string> normalized = NormalizeLines(answer.rows, columns, &rows.error);
  if (rows.error.empty()) rows.rows = std::move(normalized);
  return rows;
}

bool SameRows(const std::string& what, const ReadRows& java, const ReadRows& sluice,
              const std::vector<std::string>* model, bool quiet) {
  bool same = java.rows && sluice.rows && *java.rows == *sluice.rows;
  if (same && model != nullptr) same = *model == *sluice.rows;
  if (same) return true;
  if (quiet) return false;
  ++Counts().mismatches;
  std::string detail = what + ": java " + Show(java) + ", sluice " + Show(sluice);
  if (model != nullptr) detail += ", model " + std::to_string(model->size()) + " rows";
  auto show_diff = [&](const char* label, const std::vector<std::string>& a,
                       const std::vector<std::string>& b) {
    for (const std::string& row : Missing(a, b, 3)) detail += std::string("\n  ") + label + row;
  };
  if (java.rows && sluice.rows) {
    show_diff("only java:   ", *java.rows, *sluice.rows);
    show_diff("only sluice: ", *sluice.rows, *java.rows);
  }
  if (model != nullptr && sluice.rows) {
    show_diff("only model:  ", *model, *sluice.rows);
    show_diff("not model:   ", *sluice.rows, *model);
  }
  ADD_FAILURE() << detail;
  return false;
}

bool CompareRows(const std::string& key, const std::string& what, const ReadRows& java,
                 const ReadRows& sluice, const std::vector<std::string>* model) {
  const auto expected = ExpectedFailures().find(key);
  if (expected == ExpectedFailures().end()) return SameRows(what, java, sluice, model);
  std::pair<int64_t, int64_t>& seen = Counts().expected_failure_log[key];
  if (SameRows(what, java, sluice, model, /*quiet=*/true)) {
    ++seen.second;
    return true;
  }
  ++seen.first;
  ++Counts().expected_failures;
  return false;
}

std::vector<int64_t> SnapshotIds(const std::string& table_dir) {
  std::vector<int64_t> ids;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(table_dir + "/snapshot", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("snapshot-", 0) == 0) ids.push_back(std::stoll(name.substr(9)));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

int64_t DataFileCount(const std::string& table_dir) {
  int64_t count = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(table_dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (it->is_regular_file() && (name.rfind("data-", 0) == 0 || name.rfind("changelog-", 0) == 0))
      ++count;
  }
  return count;
}

}  // namespace sluice::test
