#include "sluice/meta/core_options.h"

#include <chrono>

#include <cctype>
#include <limits>

#include "sluice/base/string_util.h"
#include "sluice/meta/option_value.h"

namespace sluice {
namespace {

constexpr std::string_view kFieldsPrefix = "fields.";
constexpr std::string_view kSequenceGroupSuffix = ".sequence-group";
constexpr int64_t kMiB = int64_t{1} << 20;

// Java enum options match the option text of a constant, ignoring case.
template <typename E, size_t N>
Result<E> ParseEnum(std::string_view key, std::string_view text,
                    const std::pair<std::string_view, E> (&names)[N]) {
  std::string lower = AsciiToLower(text);
  std::string expected;
  for (const auto& [name, value] : names) {
    if (lower == name) return value;
    if (!expected.empty()) expected += ", ";
    expected += name;
  }
  return Status::InvalidArgument("option '" + std::string(key) + "': cannot parse '" +
                                 std::string(text) + "', expected one of: " + expected);
}

constexpr std::pair<std::string_view, MergeEngine> kMergeEngines[] = {
    {"deduplicate", MergeEngine::kDeduplicate},
    {"partial-update", MergeEngine::kPartialUpdate},
    {"aggregation", MergeEngine::kAggregation},
    {"first-row", MergeEngine::kFirstRow},
};
constexpr std::pair<std::string_view, StartupMode> kStartupModes[] = {
    {"default", StartupMode::kDefault},
    {"latest-full", StartupMode::kLatestFull},
    {"full", StartupMode::kLatestFull},
    {"latest", StartupMode::kLatest},
    {"compacted-full", StartupMode::kCompactedFull},
    {"from-timestamp", StartupMode::kFromTimestamp},
    {"from-creation-timestamp", StartupMode::kFromCreationTimestamp},
    {"from-file-creation-time", StartupMode::kFromFileCreationTime},
    {"from-snapshot", StartupMode::kFromSnapshot},
    {"from-snapshot-full", StartupMode::kFromSnapshotFull},
    {"incremental", StartupMode::kIncremental},
};

constexpr std::pair<std::string_view, ConsumerMode> kConsumerModes[] = {
    {"exactly-once", ConsumerMode::kExactlyOnce},
    {"at-least-once", ConsumerMode::kAtLeastOnce},
};

constexpr std::pair<std::string_view, ChangelogProducer> kChangelogProducers[] = {
    {"none", ChangelogProducer::kNone},
    {"input", ChangelogProducer::kInput},
    {"full-compaction", ChangelogProducer::kFullCompaction},
    {"lookup", ChangelogProducer::kLookup},
};
constexpr std::pair<std::string_view, SequenceSortOrder> kSortOrders[] = {
    {"ascending", SequenceSortOrder::kAscending},
    {"descending", SequenceSortOrder::kDescending},
};
// `lookup-compact`: true for gentle.
constexpr std::pair<std::string_view, bool> kLookupCompactModes[] = {
    {"radical", false},
    {"gentle", true},
};
constexpr std::pair<std::string_view, NestedKeyNullStrategy> kNullStrategies[] = {
    {"merge", NestedKeyNullStrategy::kMerge},
    {"ignore", NestedKeyNullStrategy::kIgnore},
    {"error", NestedKeyNullStrategy::kError},
};

std::string FieldKey(std::string_view field, std::string_view name) {
  std::string key(kFieldsPrefix);
  key += field;
  key += '.';
  key += name;
  return key;
}

}  // namespace

std::string_view MergeEngineName(MergeEngine engine) {
  for (const auto& [name, value] : kMergeEngines) {
    if (value == engine) return name;
  }
  return "?";
}

std::string_view ChangelogProducerName(ChangelogProducer producer) {
  for (const auto& [name, value] : kChangelogProducers) {
    if (value == producer) return name;
  }
  return "?";
}

std::string_view StartupModeName(StartupMode mode) {
  for (const auto& [name, value] : kStartupModes) {
    if (value == mode) return name;
  }
  return "?";
}

StartupMode CoreOptions::startup_mode() const {
  if (scan_mode_ != StartupMode::kDefault) return scan_mode_;
  auto has = [this](std::string_view key) { return Find(key) != nullptr; };
  if (has("scan.timestamp-millis") || has("scan.timestamp")) return StartupMode::kFromTimestamp;
  if (has("scan.snapshot-id") || has("scan.tag-name") || has("scan.watermark") ||
      has("scan.version")) {
    return StartupMode::kFromSnapshot;
  }
  if (has("scan.file-creation-time-millis")) return StartupMode::kFromFileCreationTime;
  if (has("scan.creation-time-millis")) return StartupMode::kFromCreationTimestamp;
  if (has("incremental-between") || has("incremental-between-timestamp")) {
    return StartupMode::kIncremental;
  }
  return StartupMode::kLatestFull;
}

Result<CoreOptions> CoreOptions::Make(const TableOptions& options, const DynamicOptions& dynamic) {
  CoreOptions result;
  auto put = [&result](const std::string& key, const std::string& value) {
    auto it = result.index_.find(key);
    if (it != result.index_.end()) {
      result.options_[it->second].second = value;
    } else {
      result.index_.emplace(key, result.options_.size());
      result.options_.emplace_back(key, value);
    }
  };
  for (const auto& [key, value] : options) put(key, value);
  for (const auto& [key, value] : dynamic) put(key, value);
  SLUICE_RETURN_NOT_OK(result.Parse());
  return result;
}

Result<CoreOptions> CoreOptions::FromSchema(const TableSchema& schema,
                                            const DynamicOptions& dynamic) {
  return Make(schema.options(), dynamic);
}

const std::string* CoreOptions::Find(std::string_view key) const {
  auto it = index_.find(key);
  return it == index_.end() ? nullptr : &options_[it->second].second;
}

TableOptions CoreOptions::WithPrefix(std::string_view prefix) const {
  TableOptions out;
  for (const auto& [key, value] : options_) {
    if (key.size() >= prefix.size() && key.compare(0, prefix.size(), prefix) == 0) {
      out.emplace_back(key.substr(prefix.size()), value);
    }
  }
  return out;
}

Status CoreOptions::Parse() {
  auto get_string = [this](std::string_view key, std::string_view fallback) {
    const std::string* v = Find(key);
    return v != nullptr ? *v : std::string(fallback);
  };
  auto get_optional = [this](std::string_view key) -> std::optional<std::string> {
    const std::string* v = Find(key);
    if (v == nullptr) return std::nullopt;
    return *v;
  };
  auto get_bool = [this](std::string_view key, bool fallback, bool* out) -> Status {
    const std::string* v = Find(key);
    if (v == nullptr) {
      *out = fallback;
      return Status::OK();
    }
    SLUICE_ASSIGN_OR_RETURN(*out, ParseBooleanOption(key, *v));
    return Status::OK();
  };
  auto get_int = [this](std::string_view key, int32_t fallback, int32_t* out) -> Status {
    const std::string* v = Find(key);
    if (v == nullptr) {
      *out = fallback;
      return Status::OK();
    }
    SLUICE_ASSIGN_OR_RETURN(*out, ParseIntOption(key, *v));
    return Status::OK();
  };
  auto get_optional_int = [this](std::string_view key, std::optional<int32_t>* out) -> Status {
    const std::string* v = Find(key);
    if (v == nullptr) return Status::OK();
    SLUICE_ASSIGN_OR_RETURN(*out, ParseIntOption(key, *v));
    return Status::OK();
  };
  auto get_size = [this](std::string_view key, int64_t fallback, int64_t* out) -> Status {
    const std::string* v = Find(key);
    if (v == nullptr) {
      *out = fallback;
      return Status::OK();
    }
    SLUICE_ASSIGN_OR_RETURN(*out, ParseMemorySizeOption(key, *v));
    return Status::OK();
  };
  auto get_optional_size = [this](std::string_view key, std::optional<int64_t>* out) -> Status {
    const std::string* v = Find(key);
    if (v == nullptr) return Status::OK();
    SLUICE_ASSIGN_OR_RETURN(*out, ParseMemorySizeOption(key, *v));
    return Status::OK();
  };
  auto get_optional_millis = [this](std::string_view key, std::optional<int64_t>* out) -> Status {
    const std::string* v = Find(key);
    if (v == nullptr) return Status::OK();
    SLUICE_ASSIGN_OR_RETURN(std::chrono::milliseconds ms, ParseDurationOption(key, *v));
    *out = ms.count();
    return Status::OK();
  };

  SLUICE_RETURN_NOT_OK(get_int("bucket", -1, &bucket_));
  if (const std::string* v = Find("bucket-key")) bucket_key_ = SplitOptionList(*v);
  if (const std::string* v = Find("dynamic-bucket.target-row-num")) {
    SLUICE_ASSIGN_OR_RETURN(dynamic_bucket_target_row_num_,
                            ParseLongOption("dynamic-bucket.target-row-num", *v));
  }
  SLUICE_RETURN_NOT_OK(
      get_optional_int("dynamic-bucket.initial-buckets", &dynamic_bucket_initial_buckets_));
  SLUICE_RETURN_NOT_OK(get_int("dynamic-bucket.max-buckets", -1, &dynamic_bucket_max_buckets_));
  SLUICE_RETURN_NOT_OK(get_int("postpone.default-bucket-num", 1, &postpone_default_bucket_num_));
  if (postpone_default_bucket_num_ < 1) {
    return Status::InvalidArgument("'postpone.default-bucket-num' must be at least 1, got " +
                                   std::to_string(postpone_default_bucket_num_));
  }
  SLUICE_RETURN_NOT_OK(get_optional_int("dynamic-bucket.assigner-parallelism",
                                        &dynamic_bucket_assigner_parallelism_));
  SLUICE_RETURN_NOT_OK(get_optional_millis("cross-partition-upsert.index-ttl",
                                           &cross_partition_upsert_index_ttl_millis_));
  SLUICE_RETURN_NOT_OK(get_int("cross-partition-upsert.bootstrap-parallelism", 10,
                               &cross_partition_upsert_bootstrap_parallelism_));
  file_format_ = AsciiToLower(get_string("file.format", "parquet"));
  file_compression_ = get_string("file.compression", "zstd");
  SLUICE_RETURN_NOT_OK(get_int("file.compression.zstd-level", 1, &zstd_level_));
  manifest_format_ = AsciiToLower(get_string("manifest.format", "avro"));
  manifest_compression_ = get_string("manifest.compression", "zstd");
  SLUICE_RETURN_NOT_OK(
      get_size("manifest.target-file-size", 8 * kMiB, &manifest_target_file_size_));
  data_file_prefix_ = get_string("data-file.prefix", "data-");
  changelog_file_prefix_ = get_string("changelog-file.prefix", "changelog-");
  SLUICE_RETURN_NOT_OK(
      get_bool("file.suffix.include.compression", false, &file_suffix_include_compression_));
  partition_default_name_ = get_string("partition.default-name", "__DEFAULT_PARTITION__");
  SLUICE_RETURN_NOT_OK(get_bool("partition.legacy-name", true, &partition_legacy_name_));
  data_file_path_directory_ = get_optional("data-file.path-directory");

  if (const std::string* v = Find("merge-engine")) {
    SLUICE_ASSIGN_OR_RETURN(merge_engine_, ParseEnum("merge-engine", *v, kMergeEngines));
  }
  if (const std::string* v = Find("sequence.field")) sequence_field_ = SplitOptionList(*v);
  if (const std::string* v = Find("sequence.field.sort-order")) {
    SLUICE_ASSIGN_OR_RETURN(sequence_sort_order_,
                            ParseEnum("sequence.field.sort-order", *v, kSortOrders));
  }
  {
    // Java reads the key, then its fallback keys in order.
    static constexpr std::string_view kIgnoreDeleteKeys[] = {
        "ignore-delete", "first-row.ignore-delete", "deduplicate.ignore-delete",
        "partial-update.ignore-delete"};
    for (std::string_view key : kIgnoreDeleteKeys) {
      if (Find(key) != nullptr) {
        SLUICE_RETURN_NOT_OK(get_bool(key, false, &ignore_delete_));
        break;
      }
    }
  }
  SLUICE_RETURN_NOT_OK(get_bool("ignore-update-before", false, &ignore_update_before_));
  SLUICE_RETURN_NOT_OK(
      get_bool("partial-update.remove-record-on-delete", false, &pu_remove_on_delete_));
  if (const std::string* v = Find("partial-update.remove-record-on-sequence-group")) {
    pu_remove_on_sequence_group_ = SplitOptionList(*v);
  }
  SLUICE_RETURN_NOT_OK(
      get_bool("aggregation.remove-record-on-delete", false, &agg_remove_on_delete_));
  default_agg_function_ = get_optional("fields.default-aggregate-function");
  rowkind_field_ = get_optional("rowkind.field");
  for (const auto& [key, value] : options_) {
    if (key.size() > kFieldsPrefix.size() + kSequenceGroupSuffix.size() &&
        key.compare(0, kFieldsPrefix.size(), kFieldsPrefix) == 0 &&
        key.compare(key.size() - kSequenceGroupSuffix.size(), kSequenceGroupSuffix.size(),
                    kSequenceGroupSuffix) == 0) {
      std::string_view groups(key);
      groups = groups.substr(kFieldsPrefix.size(),
                             key.size() - kFieldsPrefix.size() - kSequenceGroupSuffix.size());
      SequenceGroup group;
      group.ordering_fields = SplitOptionList(groups);
      group.protected_fields = SplitOptionList(value);
      sequence_groups_.push_back(std::move(group));
    }
  }

  SLUICE_RETURN_NOT_OK(get_size("write-buffer-size", 256 * kMiB, &write_buffer_size_));
  SLUICE_RETURN_NOT_OK(get_bool("write-buffer-spillable", true, &write_buffer_spillable_));
  if (const std::string* v = Find("target-file-size")) {
    SLUICE_ASSIGN_OR_RETURN(target_file_size_, ParseMemorySizeOption("target-file-size", *v));
  }
  SLUICE_RETURN_NOT_OK(get_int("num-sorted-run.compaction-trigger", 5, &compaction_trigger_));
  SLUICE_RETURN_NOT_OK(get_optional_int("num-sorted-run.stop-trigger", &stop_trigger_));
  SLUICE_RETURN_NOT_OK(get_optional_int("num-levels", &num_levels_));
  SLUICE_RETURN_NOT_OK(get_int("compaction.max-size-amplification-percent", 200, &max_size_amp_));
  SLUICE_RETURN_NOT_OK(get_int("compaction.size-ratio", 1, &size_ratio_));
  SLUICE_RETURN_NOT_OK(
      get_optional_int("full-compaction.delta-commits", &full_compaction_delta_commits_));
  if (Find("write-only") != nullptr) {
    SLUICE_RETURN_NOT_OK(get_bool("write-only", false, &write_only_));
  } else {
    SLUICE_RETURN_NOT_OK(get_bool("write.compaction-skip", false, &write_only_));
  }
  if (const std::string* v = Find("changelog-producer")) {
    SLUICE_ASSIGN_OR_RETURN(changelog_producer_,
                            ParseEnum("changelog-producer", *v, kChangelogProducers));
  }
  SLUICE_RETURN_NOT_OK(
      get_bool("changelog-producer.row-deduplicate", false, &changelog_row_deduplicate_));
  SLUICE_RETURN_NOT_OK(get_bool("deletion-vectors.enabled", false, &deletion_vectors_enabled_));
  SLUICE_RETURN_NOT_OK(get_bool("deletion-vectors.bitmap64", false, &deletion_vectors_bitmap64_));
  SLUICE_RETURN_NOT_OK(get_bool("force-lookup", false, &force_lookup_));
  if (Find("lookup-wait") != nullptr) {
    SLUICE_RETURN_NOT_OK(get_bool("lookup-wait", true, &lookup_wait_));
  } else {
    SLUICE_RETURN_NOT_OK(get_bool("changelog-producer.lookup-wait", true, &lookup_wait_));
  }
  if (const std::string* v = Find("lookup-compact")) {
    SLUICE_ASSIGN_OR_RETURN(lookup_compact_gentle_,
                            ParseEnum("lookup-compact", *v, kLookupCompactModes));
  }
  SLUICE_RETURN_NOT_OK(
      get_optional_int("lookup-compact.max-interval", &lookup_compact_max_interval_));
  SLUICE_RETURN_NOT_OK(get_bool("compaction.force-up-level-0", false, &force_up_level0_));
  SLUICE_RETURN_NOT_OK(
      get_optional_millis("compaction.optimization-interval", &optimization_interval_millis_));
  SLUICE_RETURN_NOT_OK(
      get_optional_size("compaction.total-size-threshold", &total_size_threshold_));
  SLUICE_RETURN_NOT_OK(
      get_optional_size("compaction.incremental-size-threshold", &incremental_size_threshold_));
  SLUICE_RETURN_NOT_OK(get_int("compaction.offpeak.start.hour", -1, &offpeak_start_hour_));
  SLUICE_RETURN_NOT_OK(get_int("compaction.offpeak.end.hour", -1, &offpeak_end_hour_));
  SLUICE_RETURN_NOT_OK(get_int("compaction.offpeak-ratio", 0, &offpeak_ratio_));
  if (const std::string* v = Find("compaction.small-file-ratio")) {
    SLUICE_ASSIGN_OR_RETURN(small_file_ratio_,
                            ParseDoubleOption("compaction.small-file-ratio", *v));
  }
  SLUICE_RETURN_NOT_OK(get_int("compaction.min.file-num", 5, &min_file_num_));

  SLUICE_RETURN_NOT_OK(get_int("manifest.merge-min-count", 30, &manifest_merge_min_count_));
  SLUICE_RETURN_NOT_OK(get_size("manifest.full-compaction-threshold-size", int64_t{16} << 20,
                                &manifest_full_compaction_threshold_size_));
  if (manifest_full_compaction_threshold_size_ <= 0) {
    return Status::InvalidArgument(
        "option 'manifest.full-compaction-threshold-size' must be "
        "positive: '" +
        *Find("manifest.full-compaction-threshold-size") + "'");
  }
  SLUICE_RETURN_NOT_OK(get_int("commit.max-retries", 10, &commit_max_retries_));
  SLUICE_RETURN_NOT_OK(get_optional_millis("commit.timeout", &commit_timeout_millis_));
  SLUICE_RETURN_NOT_OK(
      get_optional_millis("commit.min-retry-wait", &commit_min_retry_wait_millis_));
  SLUICE_RETURN_NOT_OK(
      get_optional_millis("commit.max-retry-wait", &commit_max_retry_wait_millis_));

  stats_mode_ = get_string("metadata.stats-mode", "truncate(16)");
  SLUICE_RETURN_NOT_OK(get_bool("metadata.stats-dense-store", true, &stats_dense_store_));
  SLUICE_RETURN_NOT_OK(get_int("metadata.stats-keep-first-n-columns", -1, &stats_keep_first_n_));
  SLUICE_RETURN_NOT_OK(get_bool("file-index.read.enabled", true, &file_index_read_enabled_));
  SLUICE_RETURN_NOT_OK(get_size("file-index.in-manifest-threshold", 500, &file_index_in_manifest_));
  SLUICE_RETURN_NOT_OK(get_bool("row-tracking.enabled", false, &row_tracking_enabled_));
  SLUICE_RETURN_NOT_OK(get_bool("data-evolution.enabled", false, &data_evolution_enabled_));
  fallback_branch_ = get_optional("scan.fallback-branch");
  SLUICE_RETURN_NOT_OK(
      get_optional_millis("tag.default-time-retained", &tag_default_time_retained_millis_));
  SLUICE_RETURN_NOT_OK(get_optional_int("tag.num-retained-max", &tag_num_retained_max_));

  auto get_optional_long = [this](std::string_view key, std::optional<int64_t>* out) -> Status {
    const std::string* v = Find(key);
    if (v == nullptr) return Status::OK();
    SLUICE_ASSIGN_OR_RETURN(*out, ParseLongOption(key, *v));
    return Status::OK();
  };
  if (const std::string* v = Find("scan.mode")) {
    SLUICE_ASSIGN_OR_RETURN(scan_mode_, ParseEnum("scan.mode", *v, kStartupModes));
  }
  SLUICE_RETURN_NOT_OK(get_optional_long("scan.snapshot-id", &scan_snapshot_id_));
  SLUICE_RETURN_NOT_OK(get_optional_long("scan.timestamp-millis", &scan_timestamp_millis_));
  scan_timestamp_ = get_optional("scan.timestamp");
  SLUICE_RETURN_NOT_OK(
      get_optional_long("scan.file-creation-time-millis", &scan_file_creation_time_millis_));
  SLUICE_RETURN_NOT_OK(get_optional_long("scan.creation-time-millis", &scan_creation_time_millis_));
  SLUICE_RETURN_NOT_OK(get_optional_long("scan.bounded.watermark", &scan_bounded_watermark_));
  SLUICE_RETURN_NOT_OK(get_bool("streaming-read-overwrite", false, &streaming_read_overwrite_));
  consumer_id_ = get_optional("consumer-id");
  if (consumer_id_ && consumer_id_->empty()) {
    return Status::InvalidArgument("option 'consumer-id' cannot be an empty string");
  }
  SLUICE_RETURN_NOT_OK(
      get_optional_millis("consumer.expiration-time", &consumer_expiration_millis_));
  if (const std::string* v = Find("consumer.mode")) {
    SLUICE_ASSIGN_OR_RETURN(consumer_mode_, ParseEnum("consumer.mode", *v, kConsumerModes));
  }
  SLUICE_RETURN_NOT_OK(get_bool("consumer.ignore-progress", false, &consumer_ignore_progress_));
  SLUICE_RETURN_NOT_OK(get_bool("consumer.changelog-only", false, &consumer_changelog_only_));
  return ValidateFieldOptions();
}

// Parses every typed `fields.<f>.<name>` option once so that the per-field accessors, which
// re-read the text, cannot meet a bad value.
Status CoreOptions::ValidateFieldOptions() const {
  auto ends_with = [](std::string_view s, std::string_view suffix) {
    return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
  };
  for (const auto& [key, value] : options_) {
    std::string_view k(key);
    if (k.substr(0, kFieldsPrefix.size()) != kFieldsPrefix) continue;
    if (ends_with(k, ".ignore-retract") || ends_with(k, ".distinct")) {
      SLUICE_RETURN_NOT_OK(ParseBooleanOption(key, value).status());
    } else if (ends_with(k, ".count-limit")) {
      SLUICE_RETURN_NOT_OK(ParseIntOption(key, value).status());
    } else if (ends_with(k, ".nested-key-null-strategy")) {
      SLUICE_RETURN_NOT_OK(ParseEnum(key, value, kNullStrategies).status());
    }
  }
  return Status::OK();
}

const std::string* CoreOptions::FindField(std::string_view field, std::string_view name) const {
  return Find(FieldKey(field, name));
}

std::optional<std::string> CoreOptions::FieldAggregateFunction(std::string_view field) const {
  const std::string* v = FindField(field, "aggregate-function");
  if (v == nullptr) return std::nullopt;
  return *v;
}

bool CoreOptions::FieldIgnoreRetract(std::string_view field) const {
  const std::string* v = FindField(field, "ignore-retract");
  return v != nullptr && ParseBooleanOption("", *v).ValueOr(false);
}

bool CoreOptions::FieldDistinct(std::string_view field) const {
  const std::string* v = FindField(field, "distinct");
  return v != nullptr && ParseBooleanOption("", *v).ValueOr(false);
}

std::string CoreOptions::FieldListAggDelimiter(std::string_view field) const {
  const std::string* v = FindField(field, "list-agg-delimiter");
  return v != nullptr ? *v : std::string(",");
}

std::vector<std::string> CoreOptions::FieldNestedKey(std::string_view field) const {
  const std::string* v = FindField(field, "nested-key");
  return v != nullptr ? SplitOptionList(*v) : std::vector<std::string>{};
}

NestedKeyNullStrategy CoreOptions::FieldNestedKeyNullStrategy(std::string_view field) const {
  const std::string* v = FindField(field, "nested-key-null-strategy");
  if (v == nullptr) return NestedKeyNullStrategy::kMerge;
  return ParseEnum("", *v, kNullStrategies).ValueOr(NestedKeyNullStrategy::kMerge);
}

bool CoreOptions::HasFieldNestedKeyNullStrategy(std::string_view field) const {
  return FindField(field, "nested-key-null-strategy") != nullptr;
}

std::vector<std::string> CoreOptions::FieldNestedSequenceField(std::string_view field) const {
  const std::string* v = FindField(field, "nested-sequence-field");
  return v != nullptr ? SplitOptionList(*v) : std::vector<std::string>{};
}

int32_t CoreOptions::FieldCountLimit(std::string_view field) const {
  const std::string* v = FindField(field, "count-limit");
  constexpr int32_t kUnlimited = std::numeric_limits<int32_t>::max();
  return v != nullptr ? ParseIntOption("", *v).ValueOr(kUnlimited) : kUnlimited;
}

std::optional<std::string> CoreOptions::FieldMergeMapTsField(std::string_view field) const {
  const std::string* v = FindField(field, "ts-field");
  if (v == nullptr) return std::nullopt;
  return *v;
}

std::optional<std::string> CoreOptions::FieldStatsMode(std::string_view field) const {
  const std::string* v = FindField(field, "stats-mode");
  if (v == nullptr) return std::nullopt;
  return *v;
}

int64_t CoreOptions::TargetFileSize(bool has_primary_key) const {
  if (target_file_size_) return *target_file_size_;
  return has_primary_key ? 128 * kMiB : 256 * kMiB;
}

int32_t CoreOptions::num_sorted_run_stop_trigger() const {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  int32_t stop = stop_trigger_ ? *stop_trigger_
                               : (compaction_trigger_ > kMax - 3 ? kMax : compaction_trigger_ + 3);
  return std::max(compaction_trigger_, stop);
}

int32_t CoreOptions::num_levels() const {
  if (num_levels_) return *num_levels_;
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  return compaction_trigger_ == kMax ? kMax : compaction_trigger_ + 1;
}

std::vector<std::string> CoreOptions::FileIndexColumns(std::string_view index_type) const {
  std::string key = "file-index.";
  key += index_type;
  key += ".columns";
  const std::string* v = Find(key);
  return v != nullptr ? SplitOptionList(*v) : std::vector<std::string>{};
}

}  // namespace sluice
