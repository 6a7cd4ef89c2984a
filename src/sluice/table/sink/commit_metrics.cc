#include "sluice/table/sink/commit_metrics.h"

#include <cctype>
#include <string>
#include <utility>

namespace sluice {

namespace {

constexpr int kHistogramWindow = 100;  // Java CommitMetrics.HISTOGRAM_WINDOW_SIZE

}  // namespace

CommitMetrics::CommitMetrics(MetricGroup table)
    : table_(std::move(table)),
      duration_(table_.histogram("paimon_commit_commitDuration",
                                 "Duration of the commits (ms), the last 100.", kHistogramWindow)),
      records_appended_total_(
          table_.counter("paimon_commit_deltaRecordsAppended_total",
                         "Records of the data files the commits' data increments added.")),
      files_added_total_(
          table_.counter("paimon_commit_tableFilesAdded_total", "Data files added by commits.")) {}

void CommitMetrics::AddSnapshot(CommitKind kind, const std::vector<ManifestEntry>& table_files,
                                const std::vector<ManifestEntry>& changelog_files) {
  const bool compact = kind == CommitKind::kCompact;
  Stats& s = stats_;
  for (const ManifestEntry& e : table_files) {
    const bool add = e.kind == FileKind::kAdd;
    s.partitions.insert(e.partition);
    s.buckets.emplace(e.partition, e.bucket);
    s.table_files_added += add;
    s.table_files_deleted += !add;
    if (compact) {
      ++s.table_files_compacted;
      s.delta_records_compacted += e.file.row_count;
      (add ? s.compaction_output_size : s.compaction_input_size) += e.file.file_size;
    } else {
      ++s.table_files_appended;
      s.delta_records_appended += e.file.row_count;
      if (add) s.delta_records_added += e.file.row_count;
    }
  }
  for (const ManifestEntry& e : changelog_files) {
    ++(compact ? s.changelog_files_compacted : s.changelog_files_appended);
    (compact ? s.changelog_records_compacted : s.changelog_records_appended) += e.file.row_count;
  }
  ++s.generated_snapshots;
  std::string name(CommitKindName(kind));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  table_.WithLabel("kind", name)
      .counter("paimon_commit_commits_total", "Snapshots made by commits, by commit kind.")
      ->Inc();
}

void CommitMetrics::ReportCommit(int64_t duration_ms, int attempts) {
  Stats s = std::move(stats_);
  stats_ = Stats();
  if (s.generated_snapshots == 0) return;
  auto set = [this](const char* name, const char* help, int64_t value) {
    table_.gauge(name, help)->Set(static_cast<double>(value));
  };
  set("paimon_commit_lastCommitDuration", "Duration of the last commit (ms).", duration_ms);
  set("paimon_commit_lastCommitAttempts", "Attempts of the last commit.", attempts);
  set("paimon_commit_lastGeneratedSnapshots", "Snapshots the last commit made.",
      s.generated_snapshots);
  set("paimon_commit_lastPartitionsWritten", "Partitions the last commit wrote.",
      static_cast<int64_t>(s.partitions.size()));
  set("paimon_commit_lastBucketsWritten", "Buckets the last commit wrote.",
      static_cast<int64_t>(s.buckets.size()));
  set("paimon_commit_lastTableFilesAdded", "Data files the last commit added.",
      s.table_files_added);
  set("paimon_commit_lastTableFilesDeleted", "Data files the last commit deleted.",
      s.table_files_deleted);
  set("paimon_commit_lastTableFilesAppended", "Data files of the last commit's data increments.",
      s.table_files_appended);
  set("paimon_commit_lastTableFilesCommitCompacted",
      "Data files of the last commit's compaction increments (before and after).",
      s.table_files_compacted);
  set("paimon_commit_lastChangelogFilesAppended",
      "Changelog files of the last commit's data increments.", s.changelog_files_appended);
  set("paimon_commit_lastChangelogFileCommitCompacted",
      "Changelog files of the last commit's compaction increments.", s.changelog_files_compacted);
  set("paimon_commit_lastDeltaRecordsAppended",
      "Records of the data files of the last commit's data increments.", s.delta_records_appended);
  set("paimon_commit_lastChangelogRecordsAppended",
      "Records of the changelog files of the last commit's data increments.",
      s.changelog_records_appended);
  set("paimon_commit_lastDeltaRecordsCommitCompacted",
      "Records of the data files of the last commit's compaction increments.",
      s.delta_records_compacted);
  set("paimon_commit_lastChangelogRecordsCommitCompacted",
      "Records of the changelog files of the last commit's compaction increments.",
      s.changelog_records_compacted);
  set("paimon_commit_lastCompactionInputFileSize",
      "Bytes of the files the last commit's compactions read.", s.compaction_input_size);
  set("paimon_commit_lastCompactionOutputFileSize",
      "Bytes of the files the last commit's compactions wrote.", s.compaction_output_size);
  duration_->Update(static_cast<double>(duration_ms));
  records_appended_total_->Inc(s.delta_records_added);
  files_added_total_->Inc(s.table_files_added);
}

}  // namespace sluice
