// The harness of the power-loss tests (issue #38): one operation (a commit of some kind, a
// schema change, a consumer's progress, a catalog DDL) run on a FaultInjectionFileIO over a
// MemoryFileIO, with the power failing after each of its mutating FileIO calls in turn
// (CrashAfter(n), n = 0, 1, ... until it runs whole), then FaultInjectionFileIO::DropUnsynced():
// what was not durably synced, file contents and directory entries alike, is gone.
//
// The state the operation starts from is built through a FaultInjectionFileIO too and survives
// a power loss right after it (its commits were acknowledged). A reference run without a cut
// gives the state after the operation. After each cut, and after a power loss right after the
// operation returned:
//   - every snapshot of each table reads (batch rows, and the delta or changelog with row
//     kinds) as it did before the operation or as the reference run reads it: no half snapshot
//     is visible, and none the reference run does not have;
//   - no snapshot that existed before is lost; the case's own state (`observe`: a schema, a
//     consumer, the catalog's tables) is the one before or the one after; when the operation
//     returned OK (acknowledged), every snapshot of the reference run is there but perhaps its
//     COMPACT ones (FileStoreCommit drops a compaction that fails after the data landed, and
//     Java's restarted committer skips a commit whose data landed), and `observe` is the
//     reference run's;
//   - the table checker (`sluice check`) finds nothing in any table;
//   - when that is not all there, the operation runs again on the recovered files (the
//     restarted process) and then it is.
// A cut whose last completed call is an Append to a file not yet closed keeps exactly what the
// cut one call earlier kept (a file's content is durable only from its Close), so when the
// calls before it are the ones the previous cut made, it is not checked again: those cuts are
// counted as duplicates (a file written in many Appends would otherwise repeat one case once
// per Append).
//
// Thread safety: one test thread.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "sluice/fs/fault_injection_file_io.h"
#include "sluice/fs/memory_file_io.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/table/table_checker.h"
#include "test_util.h"

namespace sluice::test {

struct PowerLossCase {
  // Builds the state the operation starts from, through `io`.
  std::function<Status(const std::shared_ptr<FileIO>& io)> build;
  // The operation under test. It opens what it uses through `io`, so a cut strikes it, not the
  // build.
  std::function<Status(const std::shared_ptr<FileIO>& io)> op;
  // The tables (paths) whose snapshots are compared and checked; a path without a table counts
  // as a state of its own ("no table").
  std::vector<std::string> tables;
  // What else the operation changes, rendered; never a mix of before and after.
  std::function<std::string(const std::shared_ptr<FileIO>& io)> observe;
  // The fewest cuts the operation must take (its mutating calls).
  int min_cuts = 1;
};

// A FileIO over a FaultInjectionFileIO that logs the mutating calls that succeed: for each, the
// number of mutating calls (FaultInjectionFileIO::mutations()) before and after it, its kind
// and its path with UUIDs masked (the names are random; the calls are the same run after run).
class MutationLog final : public FileIO {
 public:
  struct Call {
    int64_t first = 0;  // mutations() before the call
    int64_t last = 0;   // mutations() after it
    std::string what;   // kind and masked path
    bool operator==(const Call&) const = default;
  };

  explicit MutationLog(std::shared_ptr<FaultInjectionFileIO> base) : base_(std::move(base)) {}

  // The successful calls whose mutations all lie within the first `n`.
  std::vector<Call> Within(int64_t n) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Call> out;
    for (const Call& call : calls_) {
      if (call.last <= n) out.push_back(call);
    }
    return out;
  }
  // Whether the `n`-th mutating call (1-based) was a successful Append, alone in its call.
  bool IsAppend(int64_t n) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Call& call : calls_) {
      if (call.last == n && call.first == n - 1 && call.what.rfind("append ", 0) == 0) return true;
    }
    return false;
  }

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    return base_->OpenForRead(path);
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path,
                                                     bool overwrite) override {
    const int64_t first = base_->mutations();
    auto file = base_->OpenForWrite(path, overwrite);
    if (!file.ok()) return file.status();
    Log(first, "create " + path);
    return std::unique_ptr<WritableFile>(new LoggedFile(this, std::move(*file)));
  }
  Result<std::string> ReadFile(const std::string& path) override { return base_->ReadFile(path); }
  Result<bool> Exists(const std::string& path) override { return base_->Exists(path); }
  Result<FileStatus> GetStatus(const std::string& path) override { return base_->GetStatus(path); }
  Result<std::vector<FileStatus>> ListDir(const std::string& dir) override {
    return base_->ListDir(dir);
  }
  Status MkDirs(const std::string& dir) override {
    return Logged("mkdirs " + dir, [&] { return base_->MkDirs(dir); });
  }
  Status Delete(const std::string& path, bool recursive) override {
    return Logged("delete " + path, [&] { return base_->Delete(path, recursive); });
  }
  Status RenameNoReplace(const std::string& from, const std::string& to) override {
    return Logged("rename " + from + " " + to, [&] { return base_->RenameNoReplace(from, to); });
  }
  Status Rename(const std::string& from, const std::string& to) override {
    return Logged("replace " + from + " " + to, [&] { return base_->Rename(from, to); });
  }
  Status SyncDir(const std::string& dir) override {
    return Logged("syncdir " + dir, [&] { return base_->SyncDir(dir); });
  }

 private:
  class LoggedFile final : public WritableFile {
   public:
    LoggedFile(MutationLog* log, std::unique_ptr<WritableFile> base)
        : log_(log), base_(std::move(base)) {}
    const std::string& path() const override { return base_->path(); }
    int64_t bytes_written() const override { return base_->bytes_written(); }
    Status Append(std::string_view data) override {
      return log_->Logged("append " + path(), [&] { return base_->Append(data); });
    }
    Status Close() override {
      return log_->Logged("close " + path(), [&] { return base_->Close(); });
    }

   private:
    MutationLog* log_;
    std::unique_ptr<WritableFile> base_;
  };

  template <typename F>
  Status Logged(const std::string& what, F call) {
    const int64_t first = base_->mutations();
    Status st = call();
    if (st.ok()) Log(first, what);
    return st;
  }
  void Log(int64_t first, const std::string& what) {
    static const std::regex kUuid("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    const int64_t last = base_->mutations();
    std::lock_guard<std::mutex> lock(mutex_);
    calls_.push_back({first, last, std::regex_replace(what, kUuid, "UUID")});
  }

  std::shared_ptr<FaultInjectionFileIO> base_;
  mutable std::mutex mutex_;
  std::vector<Call> calls_;
};

// Copies the directories (empty ones too) and files under `dir` of `from` to `to`.
inline void CopyTree(FileIO& from, FileIO& to, const std::string& dir) {
  ASSERT_OK(to.MkDirs(dir));
  auto entries = from.ListDir(dir);
  ASSERT_OK(entries);
  for (const FileStatus& e : *entries) {
    if (e.is_dir) {
      CopyTree(from, to, e.path);
    } else {
      ASSERT_OK(to.WriteFileAtomic(e.path, *from.ReadFile(e.path), /*overwrite=*/false));
    }
  }
}

// The rows of one plan of `table` rendered in order of text, each prefixed with its row kind
// when `with_row_kind`.
inline Result<std::vector<std::string>> RenderPlan(const FileStoreTable& table,
                                                   const ScanOptions& scan, bool with_row_kind) {
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, scan));
  SplitReadOptions options;
  options.with_row_kind = with_row_kind;
  std::vector<std::string> out;
  for (const DataSplit& split : plan.splits) {
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SplitReader> reader,
                            OpenSplitReader(table, table.schema_ptr(), split, options));
    ColumnBatch batch(reader->output_type());
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) out.push_back(batch.GetRow(i).DebugString());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One snapshot, read: its rows, and its commit kind, rows and delta (or changelog) rows with
// their row kinds, rendered; a plan that does not read renders as its error.
struct SnapshotRead {
  bool compact = false;  // a COMPACT snapshot
  std::string rows;
  std::string text;
  bool operator==(const SnapshotRead&) const = default;
};

// Snapshot id -> its read; nullopt when `path` holds no table.
using TableReads = std::optional<std::map<int64_t, SnapshotRead>>;

inline TableReads SnapshotReads(const std::shared_ptr<FileIO>& io, const std::string& path) {
  auto table = FileStoreTable::Open(io, path);
  if (table.status().IsNotFound()) return std::nullopt;
  EXPECT_OK(table);
  if (!table.ok()) return std::nullopt;
  auto snapshots = (*table)->snapshot_manager().ListSnapshots();
  EXPECT_OK(snapshots);
  std::map<int64_t, SnapshotRead> out;
  for (const Snapshot& s : std::move(snapshots).ValueOr({})) {
    SnapshotRead& read = out[s.id];
    read.compact = s.commit_kind == CommitKind::kCompact;
    ScanOptions scan;
    scan.version = TableVersion::SnapshotId(s.id);
    for (bool delta : {false, true}) {
      scan.mode = delta ? ScanMode::kDelta : ScanMode::kBatch;
      auto rows = RenderPlan(**table, scan, /*with_row_kind=*/delta);
      std::string text = rows.ok() ? "" : " " + rows.status().ToString();
      for (const std::string& row : std::move(rows).ValueOr({})) text += " " + row;
      if (!delta) read.rows = text;
      read.text += std::string(delta ? "; delta:" : CommitKindName(s.commit_kind)) + text;
    }
  }
  return out;
}

// Everything the harness compares, of one file system.
struct PowerLossState {
  std::map<std::string, TableReads> tables;
  std::string observed;

  static PowerLossState Of(const PowerLossCase& c, const std::shared_ptr<FileIO>& io) {
    PowerLossState state;
    for (const std::string& path : c.tables) state.tables[path] = SnapshotReads(io, path);
    if (c.observe) state.observed = c.observe(io);
    return state;
  }
  bool operator==(const PowerLossState&) const = default;

  // Whether everything `after` holds but its COMPACT snapshots is here, as `after` has it.
  bool Holds(const PowerLossState& after) const {
    if (observed != after.observed) return false;
    for (const auto& [path, reads] : after.tables) {
      const TableReads& mine = tables.at(path);
      if (reads.has_value() != mine.has_value()) return false;
      if (!reads.has_value()) continue;
      for (const auto& [id, read] : *reads) {
        if (!read.compact && (!mine->count(id) || !(mine->at(id) == read))) return false;
      }
    }
    return true;
  }
};

// Every table of `c` that exists in `io` checks clean.
inline void ExpectTablesCheckClean(const PowerLossCase& c, const std::shared_ptr<FileIO>& io) {
  for (const std::string& path : c.tables) {
    auto table = FileStoreTable::Open(io, path);
    if (table.status().IsNotFound()) continue;
    ASSERT_OK(table);
    auto report = RunTableCheck(**table);
    ASSERT_OK(report);
    for (const std::string& problem : report->problems) ADD_FAILURE() << path << ": " << problem;
  }
}

// `now` lies between `before` and `after` (see the top); `acknowledged` requires `after`.
inline void ExpectBeforeOrAfter(const PowerLossState& before, const PowerLossState& after,
                                const PowerLossState& now, bool acknowledged) {
  EXPECT_TRUE(!acknowledged || now.Holds(after)) << "an acknowledged operation was lost";
  EXPECT_TRUE(now.observed == before.observed || now.observed == after.observed)
      << "half an operation: " << now.observed << "\nbefore: " << before.observed
      << "\nafter: " << after.observed;
  for (const auto& [path, reads] : now.tables) {
    const TableReads& was = before.tables.at(path);
    const TableReads& will = after.tables.at(path);
    if (!reads.has_value()) {
      EXPECT_TRUE(!was.has_value() || !will.has_value()) << path << ": the table is gone";
      continue;
    }
    if (!will.has_value()) {
      EXPECT_TRUE(reads == was) << path << ": half dropped";
      continue;
    }
    if (was.has_value()) {
      for (const auto& [id, read] : *was) {
        EXPECT_TRUE(reads->count(id)) << path << ": snapshot " << id << " of before was lost";
      }
    }
    for (const auto& [id, read] : *reads) {
      const bool as_before = was.has_value() && was->count(id) && was->at(id) == read;
      const bool as_after = will->count(id) && will->at(id) == read;
      EXPECT_TRUE(as_before || as_after)
          << path << ": snapshot " << id << " reads " << read.text
          << "\nbefore: " << (was.has_value() && was->count(id) ? was->at(id).text : "(none)")
          << "\nafter: " << (will->count(id) ? will->at(id).text : "(none)");
    }
  }
}

// Runs `c` as the top of this file says; returns the number of power losses (one per mutating
// FileIO call of the operation but the last, after which nothing is left to lose), those
// skipped as duplicates included.
inline int PowerLossAtEveryCall(const PowerLossCase& c) {
  // The start: built, then a power loss that must keep all of it.
  auto start = std::make_shared<MemoryFileIO>();
  {
    auto io = std::make_shared<FaultInjectionFileIO>(start);
    EXPECT_OK(c.build(io));
    const PowerLossState built = PowerLossState::Of(c, io);
    EXPECT_OK(io->DropUnsynced());
    EXPECT_TRUE(PowerLossState::Of(c, io) == built) << "a power loss took acknowledged work";
  }
  auto fresh = [&]() {
    auto memory = std::make_shared<MemoryFileIO>();
    CopyTree(*start, *memory, "/");
    return std::make_shared<FaultInjectionFileIO>(memory);
  };
  const PowerLossState before = PowerLossState::Of(c, start);
  auto reference = fresh();
  EXPECT_OK(c.op(reference));
  const PowerLossState after = PowerLossState::Of(c, reference);
  EXPECT_FALSE(before.Holds(after)) << "the operation changed nothing";
  ExpectTablesCheckClean(c, reference);
  int cuts = 0;
  int landed = 0;
  int duplicates = 0;
  // The calls the previous cut completed (mutations() counts from the cut's CrashAfter).
  std::vector<MutationLog::Call> previous;
  for (int64_t n = 0; !::testing::Test::HasFailure(); ++n) {
    SCOPED_TRACE("power lost after " + std::to_string(n) + " mutating calls");
    auto io = fresh();
    io->CrashAfter(n);
    auto log = std::make_shared<MutationLog>(io);
    const Status st = c.op(log);
    std::vector<MutationLog::Call> completed = log->Within(n);
    if (io->crashed() && n > 0 && log->IsAppend(n) && log->Within(n - 1) == previous) {
      // The same durable state as the previous cut's (see the top).
      ++cuts;
      ++duplicates;
      previous = std::move(completed);
      continue;
    }
    previous = std::move(completed);
    if (!io->crashed()) {
      // The operation ran whole; the power fails right after it was acknowledged.
      EXPECT_OK(st);
      EXPECT_OK(io->DropUnsynced());
      ExpectBeforeOrAfter(before, after, PowerLossState::Of(c, io), /*acknowledged=*/true);
      ExpectTablesCheckClean(c, io);
      break;
    }
    ++cuts;
    EXPECT_OK(io->DropUnsynced());
    const PowerLossState now = PowerLossState::Of(c, io);
    ExpectBeforeOrAfter(before, after, now, st.ok());
    ExpectTablesCheckClean(c, io);
    if (now.Holds(after)) {
      ++landed;
      continue;
    }
    // The restarted process runs the operation again.
    EXPECT_OK(c.op(io)) << "the operation run again after the power loss";
    ExpectBeforeOrAfter(before, after, PowerLossState::Of(c, io), /*acknowledged=*/true);
    ExpectTablesCheckClean(c, io);
  }
  EXPECT_GE(cuts, c.min_cuts);
  std::cout << cuts << " power losses (" << landed << " after the operation landed, " << duplicates
            << " in the middle of a file's Appends, as the one before)\n";
  return cuts;
}

}  // namespace sluice::test
