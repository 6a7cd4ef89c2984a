// Both at once: Java Paimon and Sluice commit into the same table at the same time, in separate
// processes. The Java oracle runs its commits (writes and full compactions) in a background
// thread while the test runs `sluice write` / `sluice compact` processes against the table.
// Every commit must land or fail with a conflict; nothing acknowledged may be lost; the final
// rows (read by Java and by Sluice) equal the model of the writes that landed; `sluice check`
// is clean.
//
// The tables are chosen so that the model does not depend on the order the commits landed in:
// an append table (the multiset of the rows) and a deduplicate primary-key table whose
// `sequence.field` carries a number unique across both sides (the greatest wins), upserts only.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "cli/cli_test_util.h"
#include "interop/interop_harness.h"
#include "interop/table_model.h"
#include "test_util.h"

namespace sluice::test {
namespace {

// A Java commit takes a fraction of a `sluice` process's time: more of them keep Java's thread
// committing while Sluice's processes run.
constexpr int kJavaCommits = 40;
constexpr int kSluiceCommits = 10;
constexpr int kKeySpace = 24;
constexpr char kJavaUserPrefix[] = "java-concurrent";

struct PlannedCommit {
  bool compact = false;
  std::vector<nlohmann::json> rows;
};

bool IsConflict(const std::string& message) { return message.find("onflict") != std::string::npos; }

class ConcurrentRun {
 public:
  ConcurrentRun(std::string name, bool primary_key, const std::string& warehouse, uint64_t seed)
      : name_(std::move(name)),
        primary_key_(primary_key),
        warehouse_(warehouse),
        table_("conc." + name_),
        dir_(warehouse + "/conc.db/" + name_),
        rng_(seed),
        model_(Shape()) {}

  void Run() {
    std::string create = "create-table " + Where() +
                         " --column 'id BIGINT NOT NULL' --column 'seq BIGINT NOT NULL' "
                         "--column 'v STRING' --option bucket=2";
    create +=
        primary_key_ ? " --primary-key id --option sequence.field=seq" : " --option bucket-key=id";
    if (!SluiceOk(create, name_ + " create")) return;
    const PlannedCommit first = Plan(false);
    if (!SluiceWrite(first.rows, nullptr)) return;
    model_.Apply(first.rows, false);

    std::vector<PlannedCommit> java;
    std::vector<PlannedCommit> sluice;
    for (int i = 0; i < kJavaCommits; ++i) java.push_back(Plan(i % 4 == 3));
    for (int i = 0; i < kSluiceCommits; ++i) sluice.push_back(Plan(i % 4 == 1));
    JavaOracle* oracle = Oracle();
    if (oracle == nullptr) return;
    nlohmann::json start = {{"cmd", "concurrent_start"},
                            {"warehouse", warehouse_},
                            {"table", table_},
                            {"user_prefix", kJavaUserPrefix}};
    start["commits"] = nlohmann::json::array();
    for (const PlannedCommit& c : java) {
      start["commits"].push_back(c.compact ? nlohmann::json{{"kind", "compact"}}
                                           : nlohmann::json{{"kind", "write"}, {"rows", c.rows}});
    }
    OracleAnswer started = oracle->Call(start);
    if (!started.ok()) {
      ADD_FAILURE() << name_ << ": concurrent_start: " << started.error();
      return;
    }
    // Sluice commits while Java's thread commits.
    for (const PlannedCommit& c : sluice) {
      std::string error;
      const bool landed = c.compact ? SluiceCommand("compact " + Where() + " --full", &error)
                                    : SluiceWrite(c.rows, &error);
      Account("sluice", c, landed, error, /*data_landed=*/landed);
    }
    OracleAnswer joined = oracle->Call({{"cmd", "concurrent_join"}});
    if (!joined.ok()) {
      ADD_FAILURE() << name_ << ": concurrent_join: " << joined.error();
      return;
    }
    AccountJava(java, joined.head);
    Verify();
  }

 private:
  TableShape Shape() const {
    TableShape shape;
    shape.columns = {{"id", DataType::BigInt(false)},
                     {"seq", DataType::BigInt(false)},
                     {"v", DataType::String()}};
    if (primary_key_) {
      shape.primary_keys = {"id"};
      shape.merge_engine = "deduplicate";
      shape.sequence_field = "seq";
    }
    return shape;
  }

  std::string Where() const {
    return ShellQuote(table_) + " --warehouse " + ShellQuote(warehouse_);
  }

  PlannedCommit Plan(bool compact) {
    PlannedCommit c;
    c.compact = compact;
    if (compact) return c;
    const int n = std::uniform_int_distribution<int>(3, 20)(rng_);
    for (int i = 0; i < n; ++i) {
      c.rows.push_back({{"id", std::uniform_int_distribution<int64_t>(0, kKeySpace - 1)(rng_)},
                        {"seq", next_seq_++},
                        {"v", RandomValue(DataType::String(), &rng_)}});
    }
    return c;
  }

  // Runs `sluice <args>`; false with `error` set (stderr) when it exits non-zero. A null
  // `error` makes a failure a test failure.
  static bool SluiceCommand(const std::string& args, std::string* error) {
    if (error == nullptr) return SluiceOk(args, "concurrent");
    CommandResult result = RunSluice(args);
    if (result.exit_code == 0) return true;
    *error = "exit " + std::to_string(result.exit_code) + ": " + result.err;
    return false;
  }

  bool SluiceWrite(const std::vector<nlohmann::json>& rows, std::string* error) {
    const std::string input = warehouse_ + "/input-" + name_ + "-" + std::to_string(inputs_++);
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    return SluiceCommand("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl",
                         error);
  }

  // One side's commit: it landed, or it failed with a conflict (anything else fails the test).
  // The rows of a write whose data landed go into the model.
  void Account(const std::string& side, const PlannedCommit& c, bool acknowledged,
               const std::string& error, bool data_landed) {
    const std::string what = name_ + ": " + side + (c.compact ? " compaction" : " write");
    if (acknowledged) {
      ++Counts().concurrent_landed;
      ++(side == "java" ? java_landed_ : sluice_landed_);
    } else if (IsConflict(error)) {
      ++Counts().concurrent_conflicts;
      ++(side == "java" ? java_conflicts_ : sluice_conflicts_);
      std::string& first = side == "java" ? java_conflict_ : sluice_conflict_;
      if (first.empty()) first = error.substr(0, 200);
    } else {
      ++Counts().mismatches;
      ADD_FAILURE() << what << " failed without a conflict: " << error;
    }
    if (!c.compact && data_landed) model_.Apply(c.rows, false);
  }

  void AccountJava(const std::vector<PlannedCommit>& java, const nlohmann::json& head) {
    const nlohmann::json& results = head["results"];
    if (!results.is_array() || results.size() != java.size()) {
      ADD_FAILURE() << name_ << ": concurrent_join answered " << head.dump();
      return;
    }
    // Commit i's snapshots carry the commit user "<prefix>-i_<uuid>".
    std::vector<std::vector<std::string>> kinds(java.size());
    std::string previous_side;
    for (const nlohmann::json& snapshot : head["snapshots"]) {
      const std::string user = snapshot.value("user", "");
      const std::string side = user.rfind(kJavaUserPrefix, 0) == 0 ? "java" : "sluice";
      if (!previous_side.empty() && side != previous_side) ++interleavings_;
      previous_side = side;
      if (side != "java") continue;
      const size_t dash = std::string(kJavaUserPrefix).size() + 1;
      const size_t index = std::stoul(user.substr(dash, user.find('_') - dash));
      if (index < kinds.size()) kinds[index].push_back(snapshot.value("kind", ""));
    }
    for (size_t i = 0; i < java.size(); ++i) {
      const bool ok = results[i].value("ok", false);
      const bool appended = std::find(kinds[i].begin(), kinds[i].end(), "APPEND") != kinds[i].end();
      if (ok && !java[i].compact && !appended) {
        ++Counts().mismatches;
        ADD_FAILURE() << name_ << ": Java write " << i
                      << " was acknowledged but no APPEND snapshot of it is in the table";
      }
      // A Java write commits its data (APPEND) before the compaction its writer did (COMPACT):
      // a conflicting compaction fails the call after the data landed.
      if (!ok && appended) ++java_data_then_conflict_;
      Account("java", java[i], ok, results[i].value("error", ""), appended);
    }
  }

  void Verify() {
    const std::vector<std::string> model = model_.Rows();
    SameRows(name_ + " after the concurrent commits",
             JavaRead({{"cmd", "read"}, {"warehouse", warehouse_}, {"table", table_}},
                      model_.shape().columns),
             SluiceRead(Where(), model_.shape().columns), &model);
    ++Counts().reads_compared;
    SluiceOk("check " + ShellQuote(dir_), name_ + " check");
    std::printf(
        "interop concurrent: %s: java %d landed, %d conflicts (%d writes whose data landed "
        "before their compaction conflicted); sluice %d landed, %d conflicts; %d switches "
        "between the sides in the snapshot sequence; %zu rows\n",
        name_.c_str(), java_landed_, java_conflicts_, java_data_then_conflict_, sluice_landed_,
        sluice_conflicts_, interleavings_, model.size());
    for (const std::string* conflict : {&java_conflict_, &sluice_conflict_}) {
      if (!conflict->empty()) std::printf("  first conflict: %s\n", conflict->c_str());
    }
    Counts().files_compared += DataFileCount(dir_);
    ++Counts().scenarios;
  }

  std::string name_;
  bool primary_key_;
  std::string warehouse_;
  std::string table_;
  std::string dir_;
  std::mt19937_64 rng_;
  TableModel model_;
  int64_t next_seq_ = 0;
  int inputs_ = 0;
  int java_landed_ = 0;
  int java_conflicts_ = 0;
  int java_data_then_conflict_ = 0;
  int sluice_landed_ = 0;
  int sluice_conflicts_ = 0;
  int interleavings_ = 0;
  std::string java_conflict_;
  std::string sluice_conflict_;
};

TEST(Interop, ConcurrentCommits) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  ASSERT_TRUE(SluiceOk("create-database conc --warehouse " + ShellQuote(warehouse.path()),
                       "create-database"));
  ConcurrentRun("append_fixed", false, warehouse.path(), 11).Run();
  ConcurrentRun("pk_sequence", true, warehouse.path(), 12).Run();
}

}  // namespace
}  // namespace sluice::test
