#include "sluice/maintenance/dedicated_compactor.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>
#include <utility>

#include "sluice/base/uuid.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/fs/file_io_factory.h"
#include "sluice/maintenance/commit_maintenance.h"
#include "sluice/meta/file_paths.h"
#include "sluice/predicate/predicate_parser.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

namespace {

using Bucket = std::pair<std::string, int32_t>;  // serialized partition, bucket
using Clock = std::chrono::steady_clock;

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Result<std::regex> CompilePattern(const std::string& argument, const std::string& pattern) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return Status::InvalidArgument(argument + " '" + pattern +
                                   "' is not a valid regular expression (" + e.what() + ")");
  }
}

// The dynamic options every task's table is loaded with (Java CompactAction /
// CompactDatabaseAction: `write-only` off; streaming: never stall, never wait for lookups).
DynamicOptions TaskOptions(const DedicatedCompactorOptions& options) {
  DynamicOptions out = options.table_conf;
  out["write-only"] = "false";
  if (options.streaming) {
    out["num-sorted-run.stop-trigger"] = "2147483647";
    out["sort-spill-threshold"] = "10";
    out["lookup-wait"] = "false";
  }
  return out;
}

// The partition filters a table's scans take: none, one per --partition spec, or --where's.
struct PartitionFilters {
  std::vector<PartitionSpec> specs;
  PredicatePtr where;
};

Result<PartitionFilters> FiltersOf(const DedicatedCompactorOptions& options,
                                   const FileStoreTable& table, const std::string& name) {
  PartitionFilters out;
  const std::vector<std::string>& keys = table.schema().partition_keys();
  std::string key_list;
  for (const std::string& k : keys) key_list += (key_list.empty() ? "" : ", ") + k;
  for (const PartitionSpec& spec : options.partitions) {
    for (const auto& [key, value] : spec) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
        return Status::InvalidArgument(
            "--partition names '" + key + "', which is not a partition key of " + name + " (" +
            (keys.empty() ? std::string("the table is not partitioned") : key_list) + ")");
      }
    }
    out.specs.push_back(spec);
  }
  if (!options.where.empty()) {
    Result<PredicatePtr> where =
        ParsePredicate(options.where, *table.schema().LogicalPartitionType());
    if (!where.ok()) {
      return where.status().WithContext("--where: only partition keys (" +
                                        (keys.empty() ? std::string("none") : key_list) +
                                        ") can be used in compaction of " + name);
    }
    out.where = *where;
  }
  return out;
}

// The buckets of `table` a scan of `version` in `mode` names, restricted by the filters and,
// when set, to partitions whose newest file is at least `idle_millis` old. The scan reports to
// `metrics` (the scans of Java's compactor source).
Result<std::set<Bucket>> BucketsOf(const FileStoreTable& table, const PartitionFilters& filters,
                                   TableVersion version, ScanMode mode,
                                   std::optional<int64_t> idle_millis,
                                   MetricRegistryImpl* metrics) {
  ScanOptions scan;
  scan.metric_registry = metrics;
  scan.version = std::move(version);
  scan.mode = mode;
  scan.delta_reads_changelog = false;  // the data files a snapshot wrote, not its changelog
  scan.partition_filter = filters.where;
  scan.num_threads = 1;
  if (table.options().bucket() == kPostponeBucket) scan.bucket = kPostponeBucket;
  std::vector<ScanOptions> scans;
  if (filters.specs.empty()) {
    scans.push_back(scan);
  } else {
    for (const PartitionSpec& spec : filters.specs) {
      ScanOptions one = scan;
      one.partition_spec = spec;
      scans.push_back(std::move(one));
    }
  }
  std::set<Bucket> out;
  std::map<std::string, int64_t> newest;  // partition -> newest file's creation millis
  for (const ScanOptions& one : scans) {
    SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, one));
    for (const DataSplit& split : plan.splits) {
      if (split.from_fallback_branch) continue;
      out.emplace(split.partition, split.bucket);
      int64_t& last = newest.emplace(split.partition, INT64_MIN).first->second;
      for (const DataFileMeta& f : split.data_files) {
        if (f.creation_time) last = std::max(last, f.creation_time->millisecond);
      }
    }
  }
  if (idle_millis) {
    const int64_t before = NowMillis() - *idle_millis;
    for (auto it = out.begin(); it != out.end();) {
      it = newest[it->first] > before ? out.erase(it) : std::next(it);
    }
  }
  return out;
}

// One watched table.
struct Watched {
  std::string name;  // db.table
  std::string database;
  std::string table;
  PartitionFilters filters;
  // Streaming: the next snapshot to read; unset until the start is found.
  std::optional<int64_t> next_snapshot;
  // Batch: the buckets were listed.
  bool listed = false;
  std::set<Bucket> pending;
  bool busy = false;
  bool dropped = false;
  bool skipped = false;  // never compacted by this job (postpone-bucket tables, streaming)
  int redos = 0;
  // The table's commit maintenance, kept for the job (partition expiry paces itself by it).
  std::unique_ptr<CommitMaintenance> maintenance;
};

struct Task {
  Watched* table = nullptr;
  std::vector<Bucket> buckets;
};

struct TaskOutcome {
  bool dropped = false;  // the table is gone
  bool redo = false;     // the commit lost a race
  int64_t files_before = 0;
  int64_t files_after = 0;
  std::optional<int64_t> snapshot;
};

class Job {
 public:
  Job(const DedicatedCompactorOptions& options, const std::atomic<bool>& stop)
      : options_(options),
        stop_(stop),
        catalog_(options.catalog
                     ? options.catalog
                     : CreateFilesystemCatalog(FileIOForPathOrFailing(options.warehouse, {}),
                                               options.warehouse)),
        task_options_(TaskOptions(options)),
        commit_user_("sluice-compact-" + NewUuidV4()) {}

  Status Run();

 private:
  Status Discover(bool first);
  Status Poll(Watched& table);
  Result<std::shared_ptr<FileStoreTable>> Load(const Watched& table) const;
  // Hands tasks to idle workers, tables round-robin. REQUIRES: mu_ held.
  void Dispatch();
  void WorkerLoop();
  Status RunTask(const Task& task, TaskOutcome* outcome);
  void Finish(const Task& task, Status status, const TaskOutcome& outcome);
  bool AllDone() const;
  void Log(const std::string& line) const {
    if (options_.log) options_.log(line);
  }
  void ReportProgress() const {
    if (options_.progress) options_.progress(progress_);
  }

  const DedicatedCompactorOptions& options_;
  const std::atomic<bool>& stop_;
  std::shared_ptr<const CatalogBackend> catalog_;
  const DynamicOptions task_options_;
  const std::string commit_user_;
  std::optional<std::regex> database_pattern_;
  std::optional<std::regex> including_;
  std::optional<std::regex> excluding_;

  std::mutex mu_;
  std::condition_variable changed_;  // a task finished, a task is queued, or shutting down
  // Every table found, by name (stable addresses: tasks point at them).
  std::map<std::string, std::unique_ptr<Watched>> tables_;
  // Round-robin order of table names; the next table to serve is at the front.
  std::deque<std::string> order_;
  std::deque<Task> queue_;
  int idle_workers_ = 0;
  int64_t finished_ = 0;  // tasks finished
  bool shutdown_ = false;
  Status error_;
  DedicatedCompactorProgress progress_;
};

Result<std::shared_ptr<FileStoreTable>> Job::Load(const Watched& table) const {
  return catalog_->LoadTable(table.database, table.table, kMainBranch, task_options_);
}

Status Job::Discover(bool first) {
  std::vector<std::pair<std::string, std::string>> found;
  if (options_.table) {
    const std::string& name = *options_.table;
    const size_t dot = name.find('.');
    found.emplace_back(name.substr(0, dot), name.substr(dot + 1));
  } else {
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> databases, catalog_->ListDatabases());
    for (const std::string& database : databases) {
      if (!std::regex_match(database, *database_pattern_)) continue;
      Result<std::vector<std::string>> tables = catalog_->ListTables(database);
      if (!tables.ok()) {
        if (tables.status().IsNotFound()) continue;  // dropped meanwhile
        return tables.status();
      }
      for (const std::string& table : *tables) {
        const std::string name = database + "." + table;
        if (!std::regex_match(name, *including_)) continue;
        if (excluding_ && std::regex_match(name, *excluding_)) continue;
        found.emplace_back(database, table);
      }
    }
  }
  std::vector<std::unique_ptr<Watched>> added;
  for (const auto& [database, table] : found) {
    const std::string name = database + "." + table;
    {
      // A table is looked at again only when it was dropped (and maybe made anew since).
      std::lock_guard<std::mutex> lock(mu_);
      auto it = tables_.find(name);
      if (it != tables_.end() &&
          (!it->second->dropped || it->second->busy || it->second->skipped)) {
        continue;
      }
    }
    auto watched = std::make_unique<Watched>();
    watched->name = name;
    watched->database = database;
    watched->table = table;
    Result<std::shared_ptr<FileStoreTable>> loaded = Load(*watched);
    if (!loaded.ok()) {
      // A table dropped between the listing and now is no table; `compact`'s one table must be.
      if (loaded.status().IsNotFound() && !options_.table) continue;
      return loaded.status().WithContext("table " + name);
    }
    if (options_.streaming && (*loaded)->options().bucket() == kPostponeBucket) {
      // Java: "Postpone bucket compaction currently only supports batch mode".
      if (options_.table) {
        return Status::InvalidArgument("table " + name +
                                       " has bucket = -2 (postpone): its compaction runs only "
                                       "in batch mode (--runtime-mode batch)");
      }
      Log("skipping " + name + ": postpone-bucket tables (bucket = -2) compact only in batch mode");
      watched->skipped = true;
      watched->dropped = true;
    } else {
      SLUICE_ASSIGN_OR_RETURN(watched->filters, FiltersOf(options_, **loaded, name));
    }
    added.push_back(std::move(watched));
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& watched : added) {
    auto it = tables_.find(watched->name);
    if (it == tables_.end()) {
      order_.push_back(watched->name);
      it = tables_.emplace(watched->name, std::make_unique<Watched>()).first;
    }
    if (!watched->skipped) {
      Log((first ? "compacting " : "new table: compacting ") + watched->name);
    }
    // In place: the address stays the one tasks were given.
    *it->second = std::move(*watched);
  }
  progress_.tables = 0;
  for (const auto& [name, table] : tables_) progress_.tables += table->dropped ? 0 : 1;
  return Status::OK();
}

Status Job::Poll(Watched& watched) {
  Result<std::shared_ptr<FileStoreTable>> loaded = Load(watched);
  if (!loaded.ok()) {
    if (!loaded.status().IsNotFound()) return loaded.status().WithContext("table " + watched.name);
    std::lock_guard<std::mutex> lock(mu_);
    watched.dropped = true;
    Log("table " + watched.name + " is gone; no longer compacting it");
    return Status::OK();
  }
  const FileStoreTable& table = **loaded;
  std::set<Bucket> buckets;
  if (!options_.streaming) {
    SLUICE_ASSIGN_OR_RETURN(
        buckets, BucketsOf(table, watched.filters, TableVersion::Latest(), ScanMode::kStreamFull,
                           options_.partition_idle_millis, options_.metrics));
    watched.listed = true;
  } else {
    const SnapshotManager& snapshots = table.snapshot_manager();
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
    if (!latest) return Status::OK();
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest, snapshots.EarliestSnapshotId());
    const int64_t first = earliest.value_or(*latest);
    bool rescan = false;
    if (!watched.next_snapshot) {
      // Java ContinuousCompactorStartingScanner: after the latest COMPACT snapshot, else from
      // the earliest.
      watched.next_snapshot = first;
      for (int64_t id = *latest; id >= first; --id) {
        Result<Snapshot> snapshot = snapshots.LoadSnapshot(id);
        if (!snapshot.ok()) {
          if (snapshot.status().IsNotFound()) break;  // expired under us: start here
          return snapshot.status();
        }
        if (snapshot->commit_kind == CommitKind::kCompact) {
          watched.next_snapshot = id + 1;
          break;
        }
      }
    }
    if (*watched.next_snapshot < first) rescan = true;  // unread snapshots expired
    for (int64_t id = std::max(*watched.next_snapshot, first); id <= *latest && !rescan; ++id) {
      Result<Snapshot> snapshot = snapshots.LoadSnapshot(id);
      if (!snapshot.ok()) {
        if (!snapshot.status().IsNotFound()) return snapshot.status();
        rescan = true;  // expired while being read
        break;
      }
      if (snapshot->commit_kind != CommitKind::kAppend) continue;
      Result<std::set<Bucket>> delta =
          BucketsOf(table, watched.filters, TableVersion::SnapshotId(id), ScanMode::kDelta,
                    std::nullopt, options_.metrics);
      if (!delta.ok()) {
        if (!delta.status().IsNotFound()) return delta.status();
        rescan = true;
        break;
      }
      buckets.insert(delta->begin(), delta->end());
    }
    watched.next_snapshot = *latest + 1;
    if (rescan) {
      Log(watched.name + ": snapshots not read yet expired; looking at every bucket");
      SLUICE_ASSIGN_OR_RETURN(std::set<Bucket> all,
                              BucketsOf(table, watched.filters, TableVersion::Latest(),
                                        ScanMode::kStreamFull, std::nullopt, options_.metrics));
      buckets.insert(all.begin(), all.end());
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  watched.pending.insert(buckets.begin(), buckets.end());
  return Status::OK();
}

void Job::Dispatch() {
  // Each round over the tables hands a task to at most every idle worker.
  size_t looked = 0;
  while (idle_workers_ > static_cast<int>(queue_.size()) && looked < order_.size()) {
    std::string name = order_.front();
    order_.pop_front();
    order_.push_back(name);
    ++looked;
    Watched& table = *tables_.at(name);
    if (table.busy || table.dropped || table.pending.empty()) continue;
    Task task;
    task.table = &table;
    while (!table.pending.empty() && task.buckets.size() < DedicatedCompactor::kMaxBucketsPerTask) {
      task.buckets.push_back(*table.pending.begin());
      table.pending.erase(table.pending.begin());
    }
    table.busy = true;
    queue_.push_back(std::move(task));
    looked = 0;  // the others get their turn before this one again
  }
  changed_.notify_all();
}

bool Job::AllDone() const {
  for (const auto& [name, table] : tables_) {
    if (table->dropped) continue;
    if (table->busy || !table->pending.empty() || !table->listed) return false;
  }
  return queue_.empty();
}

void Job::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    ++idle_workers_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return shutdown_ || !queue_.empty(); });
    --idle_workers_;
    if (queue_.empty()) return;  // shutting down with nothing left
    Task task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    TaskOutcome outcome;
    Status status = RunTask(task, &outcome);
    lock.lock();
    Finish(task, std::move(status), outcome);
  }
}

Status Job::RunTask(const Task& task, TaskOutcome* outcome) {
  Watched& watched = *task.table;
  Result<std::shared_ptr<FileStoreTable>> loaded = Load(watched);
  if (!loaded.ok()) {
    if (loaded.status().IsNotFound()) {
      outcome->dropped = true;
      return Status::OK();
    }
    return loaded.status();
  }
  std::shared_ptr<const FileStoreTable> table = *loaded;
  FileStoreWriteOptions write_options;
  write_options.commit_user = commit_user_;
  write_options.metric_registry = options_.metrics;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write,
                          FileStoreWrite::Open(table, std::move(write_options)));
  auto close_after = [&](Status status) {
    Status closed = write->Close();
    return status.ok() ? closed : status;  // the first error is the one to report
  };
  for (const auto& [partition, bucket] : task.buckets) {
    Status status = write->Compact(partition, bucket, options_.full);
    if (!status.ok()) return close_after(status);
  }
  Result<std::vector<CommitMessageImpl>> messages =
      write->PrepareCommit(Snapshot::kBatchCommitIdentifier, /*wait_compaction=*/true);
  if (!messages.ok()) return close_after(messages.status());
  ManifestCommittable committable;
  for (CommitMessageImpl& message : *messages) {
    if (message.compact.empty()) continue;
    outcome->files_before += static_cast<int64_t>(message.compact.compact_before.size());
    outcome->files_after += static_cast<int64_t>(message.compact.compact_after.size());
    committable.messages.push_back(std::move(message));
  }
  if (committable.messages.empty()) return close_after(Status::OK());
  if (options_.before_commit_for_testing) options_.before_commit_for_testing(watched.name);
  Result<std::unique_ptr<FileStoreCommit>> commit = FileStoreCommit::Make(table, commit_user_);
  if (!commit.ok()) return close_after(commit.status());
  if (options_.metrics != nullptr) (*commit)->WithMetricRegistry(options_.metrics);
  Result<CommitResult> result = (*commit)->Commit(committable);
  if (!result.ok() || !result->compaction_dropped.ok()) {
    const Status why = result.ok() ? result->compaction_dropped : result.status();
    if (!why.IsConflict()) return close_after(why);
    // Lost a race with another committer: its new files are deleted; redo from the new state.
    Log(watched.name + ": compaction dropped, redoing it (" + why.ToString() + ")");
    outcome->redo = true;
    return close_after(Status::OK());
  }
  if (!result->snapshot_ids.empty()) outcome->snapshot = result->snapshot_ids.back();
  if (!watched.maintenance) {
    Result<std::unique_ptr<CommitMaintenance>> maintenance =
        CommitMaintenance::Make(table, commit_user_);
    if (!maintenance.ok()) return close_after(maintenance.status());
    watched.maintenance = std::move(*maintenance);
    if (options_.metrics != nullptr) watched.maintenance->WithMetricRegistry(options_.metrics);
  }
  Status maintained = watched.maintenance->AfterCommit(/*batch_commit=*/!options_.streaming);
  if (!maintained.ok()) {
    Log(watched.name + ": maintenance after the compaction failed: " + maintained.ToString());
  }
  return close_after(Status::OK());
}

void Job::Finish(const Task& task, Status status, const TaskOutcome& outcome) {
  Watched& watched = *task.table;
  watched.busy = false;
  ++finished_;
  TaskOutcome redo;
  if (status.IsNotFound()) {
    // A file the compaction read is gone: the table moved on under it (another job's
    // compaction and expiry). Redo it from the new state, as a lost race.
    Log(watched.name + ": compaction dropped, redoing it (" + status.ToString() + ")");
    redo.redo = true;
    --finished_;
    Finish(task, Status::OK(), redo);
    return;
  }
  if (!status.ok()) {
    if (error_.ok()) error_ = status.WithContext("compaction of " + watched.name);
  } else if (outcome.dropped) {
    watched.dropped = true;
    watched.pending.clear();
    Log("table " + watched.name + " is gone; no longer compacting it");
  } else if (outcome.redo) {
    ++progress_.redone;
    if (!options_.streaming && ++watched.redos > DedicatedCompactor::kMaxBatchRedos) {
      if (error_.ok()) {
        error_ = Status::Conflict("compaction of " + watched.name + " lost " +
                                  std::to_string(watched.redos) +
                                  " races with other committers in a row; giving up");
      }
    } else {
      watched.pending.insert(task.buckets.begin(), task.buckets.end());
    }
    ReportProgress();
  } else if (outcome.snapshot) {
    watched.redos = 0;
    ++progress_.commits;
    progress_.files_before += outcome.files_before;
    progress_.files_after += outcome.files_after;
    Log("compacted " + std::to_string(outcome.files_before) + " files of " + watched.name +
        " into " + std::to_string(outcome.files_after) + " (snapshot " +
        std::to_string(*outcome.snapshot) + ")");
    ReportProgress();
  }
  changed_.notify_all();
}

Status Job::Run() {
  if (!options_.table) {
    SLUICE_ASSIGN_OR_RETURN(database_pattern_,
                            CompilePattern("--including_databases", options_.database_pattern));
    SLUICE_ASSIGN_OR_RETURN(including_,
                            CompilePattern("--including_tables", options_.including_tables));
    if (options_.excluding_tables) {
      SLUICE_ASSIGN_OR_RETURN(excluding_,
                              CompilePattern("--excluding_tables", *options_.excluding_tables));
    }
  }
  SLUICE_RETURN_NOT_OK(Discover(/*first=*/true));
  const bool none = std::all_of(tables_.begin(), tables_.end(),
                                [](const auto& entry) { return entry.second->dropped; });
  if (!options_.discover_new_tables && none) {
    return Status::InvalidArgument(
        "no tables to be compacted: no table of the warehouse " + options_.warehouse +
        " matches --including_databases '" + options_.database_pattern +
        "' and --including_tables '" + options_.including_tables + "'" +
        (options_.excluding_tables
             ? " but not --excluding_tables '" + *options_.excluding_tables + "'"
             : std::string()));
  }
  ReportProgress();

  std::vector<std::thread> workers;
  for (int i = 0; i < options_.threads; ++i) workers.emplace_back([this] { WorkerLoop(); });
  const auto interval =
      std::chrono::milliseconds(std::max<int64_t>(options_.discovery_interval_millis, 1));
  Clock::time_point next_poll = Clock::now();
  Clock::time_point next_discovery = Clock::now() + interval;
  Status status;
  while (!stop_.load()) {
    const Clock::time_point now = Clock::now();
    if (options_.streaming && options_.discover_new_tables && now >= next_discovery) {
      status = Discover(/*first=*/false);
      if (!status.ok()) break;
      next_discovery = now + interval;
    }
    if (now >= next_poll || !options_.streaming) {
      std::vector<Watched*> to_poll;
      {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto& [name, table] : tables_) {
          if (!table->dropped && (options_.streaming || !table->listed))
            to_poll.push_back(table.get());
        }
      }
      for (Watched* table : to_poll) {
        if (stop_.load()) break;
        status = Poll(*table);
        if (!status.ok()) break;
      }
      if (!status.ok()) break;
      next_poll = now + interval;
    }
    std::unique_lock<std::mutex> lock(mu_);
    Dispatch();
    if (!error_.ok()) break;
    if (!options_.streaming && AllDone()) break;
    // Wake when a task finishes (more to hand out), at the next poll, or to look at `stop`.
    const Clock::time_point wake =
        std::min(options_.streaming ? next_poll : Clock::time_point::max(),
                 Clock::now() + std::chrono::milliseconds(100));
    const int64_t finished_before = finished_;
    changed_.wait_until(lock, wake, [&] { return !error_.ok() || finished_ != finished_before; });
  }
  {
    // The tasks under way finish and commit; nothing new starts.
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
    for (const Task& task : queue_) task.table->busy = false;
    queue_.clear();
    changed_.notify_all();
  }
  for (std::thread& worker : workers) worker.join();
  if (!status.ok()) return status;
  return error_;
}

}  // namespace

Status DedicatedCompactor::Validate(const DedicatedCompactorOptions& options) {
  if (options.threads < 1) {
    return Status::InvalidArgument("--compaction_threads must be at least 1, got " +
                                   std::to_string(options.threads));
  }
  if (options.streaming && options.full) {
    return Status::InvalidArgument(
        "--compact_strategy full is only supported in batch mode (--runtime-mode batch); "
        "streaming compaction is minor");
  }
  if (options.streaming && options.partition_idle_millis) {
    return Status::InvalidArgument(
        "--partition_idle_time is only supported in batch mode (--runtime-mode batch)");
  }
  if (!options.partitions.empty() && !options.where.empty()) {
    return Status::InvalidArgument("--partition and --where cannot be used together");
  }
  if (options.table && options.table->find('.') == std::string::npos) {
    return Status::InvalidArgument("table '" + *options.table + "' is not db.table");
  }
  return Status::OK();
}

Status DedicatedCompactor::Run(const DedicatedCompactorOptions& options,
                               const std::atomic<bool>& stop) {
  SLUICE_RETURN_NOT_OK(Validate(options));
  Job job(options, stop);
  return job.Run();
}

}  // namespace sluice
