// SIGKILL stress test of the `sluice` command (labelled scenario, issue #38): rounds of real
// processes run at once on one local warehouse (two writes, a compaction, a snapshot expiry, a
// read and a DDL operation: create, rename or drop of a table), each sent SIGKILL at a random
// point (once the warehouse has changed by a number of entries drawn from a fixed seed, or
// never). After each round:
//   - every table the model holds is listed, and nothing else: a killed create, rename or drop
//     happened whole or not at all (the model takes the outcome found);
//   - each table's rows are exactly its acknowledged writes plus the killed (or failed) writes
//     found whole: a write is all its rows or none of them;
//   - a read that finished saw whole writes only, every write acknowledged before it started
//     among them (or failed naming the snapshot that expired under it);
//   - `sluice check` finds nothing in any table.
// The figures (rounds, writes acknowledged / killed / landed, compactions, expiries, reads, DDL
// operations, failures) are printed at the end.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "test_util.h"

extern char** environ;

namespace sluice::test {
namespace {

constexpr uint64_t kSeed = 38;
constexpr int kRounds = 12;
constexpr int kRowsPerWrite = 20;
// A process is killed after this many warehouse changes at most (drawn per process), or never.
constexpr int kMaxKillAfter = 40;

// One `sluice write` of rows (k, "w<id>") for k in [first_key, first_key + kRowsPerWrite).
struct WriteRecord {
  int id = 0;
  int64_t first_key = 0;
  enum class State { kAcknowledged, kUnknown, kLanded, kLost } state = State::kUnknown;
};

// A table of the model: its writes, in order.
using TableModel = std::vector<WriteRecord>;

struct Figures {
  int rounds = 0;
  int writes_acknowledged = 0;
  int writes_killed = 0;
  int writes_failed = 0;  // exited with an error (e.g. a commit conflict)
  int writes_landed = 0;  // of the killed or failed ones, found whole in the table
  int compactions = 0;    // finished
  int compactions_killed = 0;
  int expiries = 0;
  int expiries_killed = 0;
  int reads = 0;          // finished and checked
  int reads_expired = 0;  // failed naming the snapshot that expired under them
  int reads_killed = 0;
  int ddl_acknowledged = 0;
  int ddl_killed = 0;
  int ddl_landed = 0;  // of the killed ones, found done
  int failures = 0;
};

// One process of a round.
struct Process {
  std::vector<std::string> args;  // after the sluice binary
  int kill_after = -1;            // warehouse changes; -1: never
  std::string log;
  pid_t pid = -1;
  bool killed = false;
  int exit_code = -1;
};

// The paths under `dir`, recursively.
std::set<std::string> Entries(const std::string& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    out.insert(it->path().string());
  }
  return out;
}

size_t Changes(const std::set<std::string>& a, const std::set<std::string>& b) {
  size_t n = 0;
  for (const std::string& p : a) n += !b.count(p);
  for (const std::string& p : b) n += !a.count(p);
  return n;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs the processes at once; kills each once the warehouse changed by its `kill_after` entries
// since the round began (polling that condition), and waits for all.
void RunAtOnce(std::vector<Process>* processes, const std::string& warehouse) {
  const std::set<std::string> start = Entries(warehouse);
  for (Process& p : *processes) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, p.log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    std::vector<std::string> argv_text = {BinaryDir() + "/sluice"};
    argv_text.insert(argv_text.end(), p.args.begin(), p.args.end());
    std::vector<char*> argv;
    for (std::string& arg : argv_text) argv.push_back(arg.data());
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&p.pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  size_t running = processes->size();
  while (running > 0) {
    const size_t changes = Changes(start, Entries(warehouse));
    running = 0;
    for (Process& p : *processes) {
      if (p.pid < 0) continue;
      int status = 0;
      if (waitpid(p.pid, &status, WNOHANG) == p.pid) {
        p.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
        p.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        p.pid = -1;
        continue;
      }
      ++running;
      const bool late = std::chrono::steady_clock::now() > deadline;
      if (late) ADD_FAILURE() << "still running at the deadline: " << p.args[0];
      if (late || (p.kill_after >= 0 && changes >= static_cast<size_t>(p.kill_after))) {
        kill(p.pid, SIGKILL);
        p.kill_after = -1;
      }
    }
    // Polls the warehouse for the kill points (a condition, not a wait for time).
    if (running > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The rows of a table (or of a read's output): value -> keys.
using Rows = std::map<std::string, std::set<int64_t>>;

bool ParseRows(const std::string& jsonl, Rows* rows, std::string* error) {
  std::istringstream in(jsonl);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto row = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (row.is_discarded() || !row.contains("k") || !row.contains("v")) {
      *error = "not a row: " + line;
      return false;
    }
    (*rows)[row["v"].get<std::string>()].insert(row["k"].get<int64_t>());
  }
  return true;
}

std::set<int64_t> KeysOf(const WriteRecord& w) {
  std::set<int64_t> keys;
  for (int64_t k = w.first_key; k < w.first_key + kRowsPerWrite; ++k) keys.insert(k);
  return keys;
}

std::string Name(const WriteRecord& w) { return "w" + std::to_string(w.id); }

class SigkillStressTest : public ::testing::Test {
 protected:
  std::string Table(const std::string& name) const { return "db." + name; }

  void Fail(const std::string& what) {
    ++figures_.failures;
    ADD_FAILURE() << what;
  }

  // Resolves the table's unknown writes by its rows, then checks the rows against the model.
  void CheckTable(const std::string& name, TableModel* model) {
    CommandResult read =
        RunSluice("read " + Table(name) + " --warehouse " + warehouse_ + " --format jsonl");
    if (read.exit_code != 0) return Fail(name + ": read failed: " + read.err);
    Rows rows;
    std::string error;
    if (!ParseRows(read.out, &rows, &error)) return Fail(name + ": " + error);
    for (WriteRecord& w : *model) {
      auto found = rows.find(Name(w));
      const std::set<int64_t> keys = found == rows.end() ? std::set<int64_t>{} : found->second;
      if (found != rows.end()) rows.erase(found);
      if (keys == KeysOf(w)) {
        if (w.state == WriteRecord::State::kUnknown) ++figures_.writes_landed;
        if (w.state == WriteRecord::State::kLost) {
          Fail(name + ": write " + Name(w) + " came back");
        }
        if (w.state != WriteRecord::State::kAcknowledged) w.state = WriteRecord::State::kLanded;
      } else if (keys.empty() && w.state != WriteRecord::State::kAcknowledged &&
                 w.state != WriteRecord::State::kLanded) {
        w.state = WriteRecord::State::kLost;
      } else {
        Fail(name + ": write " + Name(w) + " has " + std::to_string(keys.size()) + " of " +
             std::to_string(kRowsPerWrite) + " rows");
      }
    }
    for (const auto& [value, keys] : rows) Fail(name + ": rows of an unknown write " + value);
    CommandResult check = RunSluice("check " + Table(name) + " --warehouse " + warehouse_);
    if (check.exit_code != 0) Fail(name + ": sluice check: " + check.out + check.err);
  }

  // A read that finished saw whole writes, every write acknowledged before it among them.
  void CheckRead(const Process& p, const std::string& name, const std::set<int>& acknowledged) {
    const std::string output = ReadText(p.log);
    if (p.exit_code != 0) {
      if (output.find("expired during the read") != std::string::npos) {
        ++figures_.reads_expired;
        return;
      }
      return Fail("read of " + name + " failed: " + output);
    }
    ++figures_.reads;
    Rows rows;
    std::string error;
    if (!ParseRows(output, &rows, &error)) return Fail("read of " + name + ": " + error);
    std::map<std::string, const WriteRecord*> writes;
    for (const WriteRecord& w : tables_.at(name)) writes[Name(w)] = &w;
    for (const auto& [value, keys] : rows) {
      auto w = writes.find(value);
      if (w == writes.end() || keys != KeysOf(*w->second)) {
        Fail("read of " + name + " saw part of write " + value);
      }
    }
    for (int id : acknowledged) {
      if (!rows.count("w" + std::to_string(id))) {
        Fail("read of " + name + " missed acknowledged write w" + std::to_string(id));
      }
    }
  }

  // The tables `sluice list db` shows.
  std::set<std::string> Listed() {
    CommandResult list = RunSluice("list db --warehouse " + warehouse_);
    EXPECT_EQ(list.exit_code, 0) << list.err;
    std::set<std::string> names;
    std::istringstream in(list.out);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) names.insert(line);
    }
    return names;
  }

  std::set<std::string> ModelNames() const {
    std::set<std::string> names;
    for (const auto& [name, model] : tables_) names.insert(name);
    return names;
  }

  test::TempDir dir_;
  std::string warehouse_ = dir_.path() + "/wh";
  std::map<std::string, TableModel> tables_;
  Figures figures_;
};

TEST_F(SigkillStressTest, ConcurrentWritesCompactionsExpiryReadsAndDdlKilledAtRandomPoints) {
  std::mt19937_64 rng(kSeed);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const std::string table_options =
      " --column 'k BIGINT NOT NULL' --column 'v STRING' --primary-key k --option bucket=2";
  auto create = [&](const std::string& name) {
    return RunSluice("create-table " + Table(name) + " --warehouse " + warehouse_ + table_options);
  };
  ASSERT_EQ(RunSluice("create-database db --warehouse " + warehouse_).exit_code, 0);
  for (const char* name : {"w0", "w1"}) {
    ASSERT_EQ(create(name).exit_code, 0);
    tables_[name];
  }
  int next_write = 1;
  int next_table = 0;
  for (int round = 1; round <= kRounds; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    ++figures_.rounds;
    const std::string logs = dir_.path() + "/r" + std::to_string(round) + "-";
    std::vector<Process> processes;
    auto add = [&](std::vector<std::string> args) -> Process& {
      Process& p = processes.emplace_back();
      p.args = std::move(args);
      p.args.insert(p.args.end(), {"--warehouse", warehouse_});
      p.kill_after = pick(3) == 0 ? -1 : pick(kMaxKillAfter + 1);
      p.log = logs + std::to_string(processes.size());
      return p;
    };
    // The DDL operation, on the tables other than w0 and w1 (named d<n>).
    std::vector<std::string> ddl_tables;
    for (const auto& [name, model] : tables_) {
      if (name[0] == 'd') ddl_tables.push_back(name);
    }
    enum class Ddl { kCreate, kRename, kDrop } ddl = Ddl::kCreate;
    if (ddl_tables.size() >= 2) ddl = static_cast<Ddl>(pick(3));
    std::string ddl_from = ddl == Ddl::kCreate ? "" : ddl_tables[pick(ddl_tables.size())];
    std::string ddl_to = ddl == Ddl::kDrop ? "" : "d" + std::to_string(next_table++);
    const size_t ddl_index = processes.size();
    if (ddl == Ddl::kCreate) {
      add({"create-table", Table(ddl_to), "--column", "k BIGINT NOT NULL", "--column", "v STRING",
           "--primary-key", "k", "--option", "bucket=2"});
    } else if (ddl == Ddl::kRename) {
      add({"rename-table", Table(ddl_from), Table(ddl_to)});
    } else {
      add({"drop-table", Table(ddl_from)});
    }
    // Two writes: into w0, and into a table the DDL leaves alone.
    std::vector<std::string> writable;
    for (const auto& [name, model] : tables_) {
      if (name != ddl_from && name != "w0") writable.push_back(name);
    }
    std::vector<std::pair<std::string, WriteRecord>> writes;
    for (const std::string& name : {std::string("w0"), writable[pick(writable.size())]}) {
      WriteRecord w;
      w.id = next_write++;
      w.first_key = static_cast<int64_t>(w.id) * 1000;
      const std::string input = logs + Name(w) + ".jsonl";
      std::ofstream out(input);
      for (int64_t k = w.first_key; k < w.first_key + kRowsPerWrite; ++k) {
        out << nlohmann::json{{"k", k}, {"v", Name(w)}}.dump() << "\n";
      }
      out.close();
      add({"write", Table(name), "--input", input});
      writes.emplace_back(name, w);
    }
    const size_t writes_end = processes.size();
    const std::string maintained = pick(2) ? "w0" : "w1";
    add({"compact", Table(maintained)});
    if (pick(2)) processes.back().args.push_back("--full");
    add({"call", "expire_snapshots", "table=" + Table(maintained), "retain_min=1", "retain_max=2"});
    const std::string read_table = pick(2) ? "w0" : "w1";
    std::set<int> acknowledged_before;
    for (const WriteRecord& w : tables_.at(read_table)) {
      if (w.state == WriteRecord::State::kAcknowledged || w.state == WriteRecord::State::kLanded) {
        acknowledged_before.insert(w.id);
      }
    }
    add({"read", Table(read_table), "--format", "jsonl"});
    const size_t read_index = processes.size() - 1;

    for (auto& [name, w] : writes) tables_[name].push_back(w);
    RunAtOnce(&processes, warehouse_);

    // The writes' outcomes; a killed or failed one is resolved by CheckTable.
    for (size_t i = 0; i < writes.size(); ++i) {
      const Process& p = processes[ddl_index + 1 + i];
      if (p.killed) {
        ++figures_.writes_killed;
        continue;
      }
      if (p.exit_code != 0) {
        ++figures_.writes_failed;
        continue;
      }
      ++figures_.writes_acknowledged;
      for (WriteRecord& w : tables_.at(writes[i].first)) {
        if (w.id == writes[i].second.id) w.state = WriteRecord::State::kAcknowledged;
      }
    }
    const Process& compact = processes[writes_end];
    const Process& expire = processes[writes_end + 1];
    compact.killed ? ++figures_.compactions_killed : ++figures_.compactions;
    expire.killed ? ++figures_.expiries_killed : ++figures_.expiries;
    for (const Process* p : {&compact, &expire}) {
      if (!p->killed && p->exit_code != 0 &&
          ReadText(p->log).find("onflict") == std::string::npos) {
        Fail(p->args[0] + " failed: " + ReadText(p->log));
      }
    }
    const Process& read = processes[read_index];
    if (read.killed) {
      ++figures_.reads_killed;
    } else {
      CheckRead(read, read_table, acknowledged_before);
    }

    // The DDL's outcome: the listing is the model before it or after it.
    const Process& ddl_process = processes[ddl_index];
    std::set<std::string> before = ModelNames();
    std::set<std::string> after = before;
    if (!ddl_from.empty()) after.erase(ddl_from);
    if (!ddl_to.empty()) after.insert(ddl_to);
    const std::set<std::string> listed = Listed();
    const bool done = listed == after;
    if (!done && listed != before) {
      std::string names;
      for (const std::string& n : listed) names += " " + n;
      Fail("tables listed:" + names + ", neither before nor after the DDL");
    }
    if (ddl_process.killed) {
      ++figures_.ddl_killed;
      figures_.ddl_landed += done;
    } else if (ddl_process.exit_code == 0) {
      ++figures_.ddl_acknowledged;
      if (!done) Fail("an acknowledged DDL operation is not there");
    } else {
      Fail(ddl_process.args[0] + " failed: " + ReadText(ddl_process.log));
    }
    if (done) {
      TableModel moved = ddl_from.empty() ? TableModel{} : tables_[ddl_from];
      if (!ddl_from.empty()) tables_.erase(ddl_from);
      if (!ddl_to.empty()) tables_[ddl_to] = std::move(moved);
    }
    for (auto& [name, model] : tables_) CheckTable(name, &model);
    if (HasFailure()) break;
  }
  std::cout << "sigkill stress (seed " << kSeed << "): " << figures_.rounds << " rounds; writes "
            << figures_.writes_acknowledged << " acknowledged, " << figures_.writes_killed
            << " killed, " << figures_.writes_failed << " failed, " << figures_.writes_landed
            << " of the killed or failed landed whole; compactions " << figures_.compactions
            << " (+" << figures_.compactions_killed << " killed); expiries " << figures_.expiries
            << " (+" << figures_.expiries_killed << " killed); reads " << figures_.reads
            << " checked (+" << figures_.reads_expired << " failed on an expired snapshot, "
            << figures_.reads_killed << " killed); DDL " << figures_.ddl_acknowledged
            << " acknowledged, " << figures_.ddl_killed << " killed (" << figures_.ddl_landed
            << " landed); failures " << figures_.failures << "\n";
}

}  // namespace
}  // namespace sluice::test
