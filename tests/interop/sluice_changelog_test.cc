// Java reads the changelog Sluice writes: one table per changelog producer and merge engine
// (input, lookup over every engine Java allows it with, full-compaction; input and lookup with
// deletion vectors too), written and compacted
// through the `sluice` command with upserts and deletes. Every snapshot's changelog read by Java
// (incremental changelog mode, as a streaming read of the snapshot) must equal Sluice's
// `--mode delta --snapshot N`, and the latest rows must be the model's. Lookup tables of every
// engine are also left to the lookup compaction alone, which moves files to a middle level,
// and read by Java after every write.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "interop/interop_harness.h"
#include "interop/table_model.h"
#include "test_util.h"

namespace sluice::test {
namespace {

struct ChangelogTable {
  std::string name;
  std::map<std::string, std::string> options;
  TableShape shape;
  bool deletes = true;
  // Java's batch incremental read of a deletion-vector table skips level 0
  // (DataTableBatchScan, batchScanSkipLevel0), where input changelog files are: the changelog
  // of every snapshot from 2 on is compared, as a whole, with Java's streaming read from
  // snapshot 2 (StreamTableScan, which Sluice's --mode delta follows).
  bool stream_oracle = false;
  // No full compaction: only the lookup compaction of each `sluice write` (compaction trigger
  // 2, three levels) moves its level-0 file up, to the middle level below the table's oldest
  // run where that run is larger. Java reads a record above level 0 as its key's whole value
  // (LookupMergeFunction), so the rows are compared after every write.
  bool middle_levels = false;
};

std::vector<ChangelogTable> Tables() {
  std::vector<ChangelogTable> out;
  auto add = [&](std::string name, std::map<std::string, std::string> options,
                 std::string engine = "deduplicate", bool deletes = true) {
    ChangelogTable t;
    t.name = std::move(name);
    t.options = std::move(options);
    t.options["bucket"] = "2";
    if (engine != "deduplicate") t.options["merge-engine"] = engine;
    t.shape.columns = {
        {"id", DataType::BigInt(false)}, {"v_int", DataType::Int()}, {"v_str", DataType::String()}};
    t.shape.primary_keys = {"id"};
    t.shape.merge_engine = engine;
    if (engine == "aggregation") {
      t.shape.aggregate_functions["v_int"] = "sum";
      t.options["fields.v_int.aggregate-function"] = "sum";
    }
    t.deletes = deletes;
    out.push_back(std::move(t));
  };
  add("input", {{"changelog-producer", "input"}});
  add("lookup", {{"changelog-producer", "lookup"}});
  add("lookup_dedup",
      {{"changelog-producer", "lookup"}, {"changelog-producer.row-deduplicate", "true"}});
  add("lookup_partial_update", {{"changelog-producer", "lookup"}}, "partial-update", false);
  add("lookup_aggregation", {{"changelog-producer", "lookup"}}, "aggregation", false);
  add("lookup_first_row", {{"changelog-producer", "lookup"}}, "first-row", false);
  add("full_compaction", {{"changelog-producer", "full-compaction"}});
  add("full_compaction_partial_update", {{"changelog-producer", "full-compaction"}},
      "partial-update", false);
  // Deletion vectors beside the changelog (producers input and lookup, as Java allows): the
  // lookup compaction writes both in one pass; Java reads the rows with its deletion vectors.
  const std::map<std::string, std::string> dv = {{"deletion-vectors.enabled", "true"}};
  auto with_dv = [&dv](std::map<std::string, std::string> options) {
    options.insert(dv.begin(), dv.end());
    return options;
  };
  add("input_dv", with_dv({{"changelog-producer", "input"}}));
  out.back().stream_oracle = true;
  add("lookup_dv", with_dv({{"changelog-producer", "lookup"}}));
  add("lookup_dedup_dv",
      with_dv({{"changelog-producer", "lookup"}, {"changelog-producer.row-deduplicate", "true"}}));
  add("lookup_partial_update_dv", with_dv({{"changelog-producer", "lookup"}}), "partial-update",
      false);
  add("lookup_aggregation_dv", with_dv({{"changelog-producer", "lookup"}}), "aggregation", false);
  for (std::string engine : {"deduplicate", "partial-update", "aggregation", "first-row"}) {
    std::string name = "lookup_levels_" + engine;
    std::replace(name.begin(), name.end(), '-', '_');
    add(name, {{"changelog-producer", "lookup"}, {"num-sorted-run.compaction-trigger", "2"}},
        engine, engine == "deduplicate");
    out.back().middle_levels = true;
  }
  return out;
}

class ChangelogRun {
 public:
  ChangelogRun(ChangelogTable t, const std::string& warehouse, uint64_t seed)
      : t_(std::move(t)), warehouse_(warehouse), rng_(seed), model_(t_.shape) {
    table_ = "changelog." + t_.name;
  }

  void Run() {
    std::string args = "create-table " + Where();
    for (const Column& column : t_.shape.columns) {
      args += " --column " + ShellQuote(column.name + " " + column.type->ToString());
    }
    args += " --primary-key id";
    for (const auto& [k, v] : t_.options) args += " --option " + ShellQuote(k + "=" + v);
    if (!SluiceOk(args, t_.name + " create")) return;
    int middle_level_writes = 0;
    for (int step = 0; step < (t_.middle_levels ? 8 : 6); ++step) {
      if (!Write(step > 0)) return;
      if (t_.middle_levels) {
        CompareLatest(t_.name + " after write " + std::to_string(step));
        middle_level_writes += HasMiddleLevelFile() ? 1 : 0;
      } else if (step % 2 == 1 &&
                 !SluiceOk("compact " + Where() + " --full", t_.name + " compact")) {
        return;
      }
    }
    if (t_.middle_levels) {
      EXPECT_GT(middle_level_writes, 0) << t_.name << ": no write left a file at level 1";
    } else {
      CompareLatest(t_.name + " latest");
    }
    std::vector<int64_t> ids = SnapshotIds(warehouse_ + "/changelog.db/" + t_.name);
    if (t_.stream_oracle) {
      CompareStream(ids);
      ids.clear();
    }
    for (int64_t id : ids) {
      if (id < 2) continue;
      nlohmann::json command = {{"cmd", "read"}, {"warehouse", warehouse_}, {"table", table_}};
      command["incremental"] = std::to_string(id - 1) + "," + std::to_string(id);
      command["incremental_mode"] = "changelog";
      CompareRows(
          "sluice-written-changelog/" + t_.name + "/changelog",
          t_.name + " changelog of snapshot " + std::to_string(id),
          JavaRead(command, t_.shape.columns),
          SluiceRead(Where() + " --mode delta --snapshot " + std::to_string(id), t_.shape.columns),
          nullptr);
      ++Counts().deltas_compared;
    }
    SluiceOk("check " + ShellQuote(warehouse_ + "/changelog.db/" + t_.name), t_.name + " check");
    ++Counts().scenarios;
  }

 private:
  // The changelog of snapshots 2.. as Java's streaming read gives it and as Sluice's
  // `--mode delta` of each snapshot does, compared as multisets.
  void CompareStream(const std::vector<int64_t>& ids) {
    nlohmann::json command = {{"cmd", "stream_read"}, {"warehouse", warehouse_}, {"table", table_}};
    command["options"] = {{"scan.mode", "from-snapshot"}, {"scan.snapshot-id", "2"}};
    ReadRows java;
    OracleAnswer answer = Oracle()->Call(command);
    if (answer.ok()) {
      java.rows.emplace();
      for (const std::string& line : answer.rows) {
        nlohmann::json row = nlohmann::json::parse(line);
        row.erase("_PLAN");
        java.rows->push_back(NormalizeRow(row, t_.shape.columns));
      }
      std::sort(java.rows->begin(), java.rows->end());
    } else {
      java.error = answer.error();
    }
    ReadRows sluice;
    sluice.rows.emplace();
    for (int64_t id : ids) {
      if (id < 2) continue;
      ReadRows delta =
          SluiceRead(Where() + " --mode delta --snapshot " + std::to_string(id), t_.shape.columns);
      if (!delta.rows) {
        sluice = delta;
        break;
      }
      sluice.rows->insert(sluice.rows->end(), delta.rows->begin(), delta.rows->end());
    }
    if (sluice.rows) std::sort(sluice.rows->begin(), sluice.rows->end());
    CompareRows("sluice-written-changelog/" + t_.name + "/stream", t_.name + " streamed changelog",
                java, sluice, nullptr);
    ++Counts().deltas_compared;
  }

  void CompareLatest(const std::string& what) {
    const std::vector<std::string> model = model_.Rows();
    SameRows(
        what,
        JavaRead({{"cmd", "read"}, {"warehouse", warehouse_}, {"table", table_}}, t_.shape.columns),
        SluiceRead(Where(), t_.shape.columns), &model);
    ++Counts().reads_compared;
  }

  // Whether the latest snapshot has a data file at level 1 (below the max level, 2).
  bool HasMiddleLevelFile() {
    std::string out;
    const std::string query =
        "SELECT count(*) AS n FROM \"changelog\".\"" + t_.name + "$files\" WHERE level = 1";
    if (!SluiceOk(
            "sql --format jsonl --warehouse " + ShellQuote(warehouse_) + " " + ShellQuote(query),
            t_.name + " files", &out)) {
      return false;
    }
    return nlohmann::json::parse(out).at("n").get<int64_t>() > 0;
  }

  std::string Where() const {
    return ShellQuote(table_) + " --warehouse " + ShellQuote(warehouse_);
  }

  bool Write(bool allow_delete) {
    std::vector<nlohmann::json> rows;
    const int n = std::uniform_int_distribution<int>(3, 20)(rng_);
    for (int i = 0; i < n; ++i) {
      // Middle-level tables take new keys in every write: first-row rewrites a level-0 file
      // moved up without the keys already above, which would leave nothing to move.
      const int64_t max_id = t_.middle_levels ? 99 : 11;
      nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, max_id)(rng_)},
                            {"v_int", std::uniform_int_distribution<int>(0, 3)(rng_)},
                            {"v_str", "s" + std::to_string(rng_() % 3)}};
      if (t_.deletes && allow_delete && rng_() % 5 == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(std::move(row));
    }
    const std::string input = warehouse_ + "/input-" + t_.name + ".jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    if (!SluiceOk("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl",
                  t_.name + " write")) {
      return false;
    }
    model_.Apply(rows, false);
    return true;
  }

  ChangelogTable t_;
  std::string warehouse_;
  std::string table_;
  std::mt19937_64 rng_;
  TableModel model_;
};

TEST(Interop, JavaReadsSluiceChangelog) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  ASSERT_TRUE(SluiceOk("create-database changelog --warehouse " + ShellQuote(warehouse.path()),
                       "create-database"));
  std::mt19937_64 rng(20261202);
  for (ChangelogTable t : Tables()) {
    SCOPED_TRACE(t.name);
    ChangelogRun(std::move(t), warehouse.path(), rng()).Run();
  }
}

}  // namespace
}  // namespace sluice::test
