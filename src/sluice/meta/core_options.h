// CoreOptions: the typed view of a table's options (Java org.apache.paimon.CoreOptions), parsed
// once from the schema's options plus dynamic overrides (options given for one read or write,
// which win over the schema's). Keys, fallback keys and defaults follow Java Paimon (main);
// defaults apply to keys the options do not hold, as Java never writes defaults into a schema.
//
// Make() validates every value it knows the type of, including the per-field `fields.<f>.*`
// options, so the accessors cannot fail: a bad value is an InvalidArgument naming the key and
// the value. Keys CoreOptions does not know are kept and reachable through Find() /
// WithPrefix() (format options such as `parquet.*`, `file-index.*`).
//
// Thread safety: immutable after construction; safe to share across threads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

namespace sluice {

enum class MergeEngine { kDeduplicate, kPartialUpdate, kAggregation, kFirstRow };
enum class ChangelogProducer { kNone, kInput, kFullCompaction, kLookup };
enum class SequenceSortOrder { kAscending, kDescending };
// What nested_update / nested_partial_update do with a row whose nested key has a null.
enum class NestedKeyNullStrategy { kMerge, kIgnore, kError };
// `scan.mode` (Java StartupMode); `full` reads as kLatestFull.
enum class StartupMode {
  kDefault,
  kLatestFull,
  kLatest,
  kCompactedFull,
  kFromTimestamp,
  kFromCreationTimestamp,
  kFromFileCreationTime,
  kFromSnapshot,
  kFromSnapshotFull,
  kIncremental,
};
// `consumer.mode` (Java ConsumerMode).
enum class ConsumerMode { kExactlyOnce, kAtLeastOnce };

// The option text Java uses ("partial-update", "full-compaction", ...).
std::string_view MergeEngineName(MergeEngine engine);
std::string_view ChangelogProducerName(ChangelogProducer producer);
std::string_view StartupModeName(StartupMode mode);

// One `fields.<g1>[,<g2>..].sequence-group = <f1>,<f2>,..` option.
struct SequenceGroup {
  std::vector<std::string> ordering_fields;   // g1, g2, ...
  std::vector<std::string> protected_fields;  // f1, f2, ...
};

using DynamicOptions = std::map<std::string, std::string>;

class CoreOptions {
 public:
  // `options` in schema order, then `dynamic` (overriding equal keys).
  static Result<CoreOptions> Make(const TableOptions& options, const DynamicOptions& dynamic = {});
  static Result<CoreOptions> FromSchema(const TableSchema& schema,
                                        const DynamicOptions& dynamic = {});

  // The merged options: schema order, then dynamic keys the schema did not have.
  const TableOptions& options() const { return options_; }
  // The raw value of `key`, or nullptr.
  const std::string* Find(std::string_view key) const;
  // Every option whose key starts with `prefix`, with the prefix removed, in option order.
  TableOptions WithPrefix(std::string_view prefix) const;

  // --- Layout and files.
  int32_t bucket() const { return bucket_; }                                  // `bucket`, -1
  const std::vector<std::string>& bucket_key() const { return bucket_key_; }  // `bucket-key`
  // Dynamic bucket mode (`bucket` = -1 primary-key tables; Java DYNAMIC_BUCKET_*): the hash
  // count a bucket takes before new keys go elsewhere, the number of assigners, the bucket
  // bound per partition (-1: none), the assigners' parallelism.
  int64_t dynamic_bucket_target_row_num() const { return dynamic_bucket_target_row_num_; }
  const std::optional<int32_t>& dynamic_bucket_initial_buckets() const {
    return dynamic_bucket_initial_buckets_;
  }
  int32_t dynamic_bucket_max_buckets() const { return dynamic_bucket_max_buckets_; }  // -1
  const std::optional<int32_t>& dynamic_bucket_assigner_parallelism() const {
    return dynamic_bucket_assigner_parallelism_;
  }
  // Cross-partition upsert tables (Java CROSS_PARTITION_UPSERT_*): how long a key's location
  // stays in the writer's key index (unset: for ever), and the threads bootstrapping it.
  const std::optional<int64_t>& cross_partition_upsert_index_ttl_millis() const {
    return cross_partition_upsert_index_ttl_millis_;
  }
  int32_t cross_partition_upsert_bootstrap_parallelism() const {  // 10
    return cross_partition_upsert_bootstrap_parallelism_;
  }
  // Postpone bucket mode (`bucket` = -2): the bucket count of a partition compacted for the
  // first time (`postpone.default-bucket-num`, 1).
  int32_t postpone_default_bucket_num() const { return postpone_default_bucket_num_; }
  const std::string& file_format() const { return file_format_; }  // lower case, "parquet"
  const std::string& file_compression() const { return file_compression_; }          // "zstd"
  int32_t file_compression_zstd_level() const { return zstd_level_; }                // 1
  const std::string& manifest_format() const { return manifest_format_; }            // "avro"
  const std::string& manifest_compression() const { return manifest_compression_; }  // "zstd"
  int64_t manifest_target_file_size() const { return manifest_target_file_size_; }   // 8 mb
  const std::string& data_file_prefix() const { return data_file_prefix_; }          // "data-"
  const std::string& changelog_file_prefix() const { return changelog_file_prefix_; }
  bool file_suffix_include_compression() const { return file_suffix_include_compression_; }
  const std::string& partition_default_name() const { return partition_default_name_; }
  bool partition_legacy_name() const { return partition_legacy_name_; }  // true
  // `data-file.path-directory`: a folder under the table holding the partition folders.
  const std::optional<std::string>& data_file_path_directory() const {
    return data_file_path_directory_;
  }

  // --- Merge engines.
  MergeEngine merge_engine() const { return merge_engine_; }
  // `sequence.field`, split on ',' and trimmed; empty when unset.
  const std::vector<std::string>& sequence_field() const { return sequence_field_; }
  SequenceSortOrder sequence_field_sort_order() const { return sequence_sort_order_; }
  // `ignore-delete`, or its older keys `first-row.ignore-delete`, `deduplicate.ignore-delete`,
  // `partial-update.ignore-delete` (Java fallback keys, first one set wins).
  bool ignore_delete() const { return ignore_delete_; }
  bool ignore_update_before() const { return ignore_update_before_; }
  bool partial_update_remove_record_on_delete() const { return pu_remove_on_delete_; }
  // `partial-update.remove-record-on-sequence-group`, split on ','; empty when unset.
  const std::vector<std::string>& partial_update_remove_record_on_sequence_group() const {
    return pu_remove_on_sequence_group_;
  }
  bool aggregation_remove_record_on_delete() const { return agg_remove_on_delete_; }
  const std::optional<std::string>& fields_default_aggregate_function() const {
    return default_agg_function_;
  }
  const std::optional<std::string>& rowkind_field() const { return rowkind_field_; }
  // Every `fields.*.sequence-group` option, in option order.
  const std::vector<SequenceGroup>& sequence_groups() const { return sequence_groups_; }

  // --- Per-field options (`fields.<field>.<name>`).
  std::optional<std::string> FieldAggregateFunction(std::string_view field) const;
  bool FieldIgnoreRetract(std::string_view field) const;            // false
  bool FieldDistinct(std::string_view field) const;                 // false
  std::string FieldListAggDelimiter(std::string_view field) const;  // ","
  std::vector<std::string> FieldNestedKey(std::string_view field) const;
  NestedKeyNullStrategy FieldNestedKeyNullStrategy(std::string_view field) const;  // merge
  bool HasFieldNestedKeyNullStrategy(std::string_view field) const;
  std::vector<std::string> FieldNestedSequenceField(std::string_view field) const;
  int32_t FieldCountLimit(std::string_view field) const;  // Integer.MAX_VALUE
  std::optional<std::string> FieldMergeMapTsField(std::string_view field) const;
  std::optional<std::string> FieldStatsMode(std::string_view field) const;

  // --- LSM and compaction.
  int64_t write_buffer_size() const { return write_buffer_size_; }  // 256 mb
  bool write_buffer_spillable() const { return write_buffer_spillable_; }
  // `target-file-size`; unset: 128 mb for primary-key tables, 256 mb for append tables.
  int64_t TargetFileSize(bool has_primary_key) const;
  int32_t num_sorted_run_compaction_trigger() const { return compaction_trigger_; }  // 5
  // `num-sorted-run.stop-trigger`; unset: trigger + 3; never below the trigger.
  int32_t num_sorted_run_stop_trigger() const;
  // `num-levels`; unset: trigger + 1.
  int32_t num_levels() const;
  int32_t compaction_max_size_amplification_percent() const { return max_size_amp_; }  // 200
  int32_t compaction_size_ratio() const { return size_ratio_; }                        // 1
  const std::optional<int32_t>& full_compaction_delta_commits() const {
    return full_compaction_delta_commits_;
  }
  bool write_only() const { return write_only_; }  // also `write.compaction-skip`
  ChangelogProducer changelog_producer() const { return changelog_producer_; }
  bool changelog_producer_row_deduplicate() const { return changelog_row_deduplicate_; }
  bool deletion_vectors_enabled() const { return deletion_vectors_enabled_; }
  bool deletion_vectors_bitmap64() const { return deletion_vectors_bitmap64_; }
  bool force_lookup() const { return force_lookup_; }  // false
  // `lookup-wait`, or its older key `changelog-producer.lookup-wait`; true.
  bool lookup_wait() const { return lookup_wait_; }
  bool lookup_compact_gentle() const { return lookup_compact_gentle_; }  // `lookup-compact`
  const std::optional<int32_t>& lookup_compact_max_interval() const {
    return lookup_compact_max_interval_;
  }
  bool compaction_force_up_level0() const { return force_up_level0_; }  // false
  // `compaction.optimization-interval`, in milliseconds.
  const std::optional<int64_t>& compaction_optimization_interval_millis() const {
    return optimization_interval_millis_;
  }
  const std::optional<int64_t>& compaction_total_size_threshold() const {
    return total_size_threshold_;
  }
  const std::optional<int64_t>& compaction_incremental_size_threshold() const {
    return incremental_size_threshold_;
  }
  int32_t compaction_offpeak_start_hour() const { return offpeak_start_hour_; }  // -1
  int32_t compaction_offpeak_end_hour() const { return offpeak_end_hour_; }      // -1
  int32_t compaction_offpeak_ratio() const { return offpeak_ratio_; }            // 0
  double compaction_small_file_ratio() const { return small_file_ratio_; }       // 0.7
  int32_t compaction_min_file_num() const { return min_file_num_; }              // 5

  // --- Commit.
  int32_t manifest_merge_min_count() const { return manifest_merge_min_count_; }  // 30
  int64_t manifest_full_compaction_threshold_size() const {                       // 16 mb
    return manifest_full_compaction_threshold_size_;
  }
  int32_t commit_max_retries() const { return commit_max_retries_; }  // 10
  const std::optional<int64_t>& commit_timeout_millis() const { return commit_timeout_millis_; }
  const std::optional<int64_t>& commit_min_retry_wait_millis() const {
    return commit_min_retry_wait_millis_;
  }
  const std::optional<int64_t>& commit_max_retry_wait_millis() const {
    return commit_max_retry_wait_millis_;
  }

  // --- Statistics, indexes, evolution, branches.
  const std::string& metadata_stats_mode() const { return stats_mode_; }  // "truncate(16)"
  bool metadata_stats_dense_store() const { return stats_dense_store_; }  // true
  int32_t metadata_stats_keep_first_n_columns() const { return stats_keep_first_n_; }   // -1
  bool file_index_read_enabled() const { return file_index_read_enabled_; }             // true
  int64_t file_index_in_manifest_threshold() const { return file_index_in_manifest_; }  // 500
  // `file-index.<index_type>.columns`, split on ','; empty when unset.
  std::vector<std::string> FileIndexColumns(std::string_view index_type) const;
  bool row_tracking_enabled() const { return row_tracking_enabled_; }
  bool data_evolution_enabled() const { return data_evolution_enabled_; }
  const std::optional<std::string>& scan_fallback_branch() const { return fallback_branch_; }

  // --- Tags.
  // `tag.default-time-retained`: the retention of tags made without one (unset: kept forever).
  const std::optional<int64_t>& tag_default_time_retained_millis() const {
    return tag_default_time_retained_millis_;
  }
  // `tag.num-retained-max`: how many automatic tags are kept (unset: all).
  const std::optional<int32_t>& tag_num_retained_max() const { return tag_num_retained_max_; }
  // --- Streaming reads and consumers (Java StartupMode, ConsumerManager options).
  // `scan.mode` with Java's resolution of `default` (startupMode()): from-timestamp when
  // `scan.timestamp-millis` / `scan.timestamp` is set, from-snapshot for `scan.snapshot-id` /
  // `scan.tag-name` / `scan.watermark` / `scan.version`, from-file-creation-time,
  // from-creation-timestamp, incremental for `incremental-between*`, else latest-full.
  StartupMode startup_mode() const;
  const std::optional<int64_t>& scan_snapshot_id() const { return scan_snapshot_id_; }
  const std::optional<int64_t>& scan_timestamp_millis() const { return scan_timestamp_millis_; }
  // `scan.timestamp` as written ("2024-01-01 12:00:00"); resolved by the table layer.
  const std::optional<std::string>& scan_timestamp() const { return scan_timestamp_; }
  const std::optional<int64_t>& scan_file_creation_time_millis() const {
    return scan_file_creation_time_millis_;
  }
  const std::optional<int64_t>& scan_creation_time_millis() const {
    return scan_creation_time_millis_;
  }
  const std::optional<int64_t>& scan_bounded_watermark() const { return scan_bounded_watermark_; }
  bool streaming_read_overwrite() const { return streaming_read_overwrite_; }  // false
  // `consumer-id`; an empty value is refused by Make().
  const std::optional<std::string>& consumer_id() const { return consumer_id_; }
  const std::optional<int64_t>& consumer_expiration_time_millis() const {
    return consumer_expiration_millis_;
  }
  ConsumerMode consumer_mode() const { return consumer_mode_; }                // exactly-once
  bool consumer_ignore_progress() const { return consumer_ignore_progress_; }  // false
  bool consumer_changelog_only() const { return consumer_changelog_only_; }    // false

 private:
  CoreOptions() = default;
  Status Parse();
  Status ValidateFieldOptions() const;
  const std::string* FindField(std::string_view field, std::string_view name) const;

  TableOptions options_;
  std::map<std::string, size_t, std::less<>> index_;  // key -> position in options_

  int32_t bucket_ = -1;
  std::vector<std::string> bucket_key_;
  int64_t dynamic_bucket_target_row_num_ = 2000000;
  std::optional<int32_t> dynamic_bucket_initial_buckets_;
  int32_t dynamic_bucket_max_buckets_ = -1;
  int32_t postpone_default_bucket_num_ = 1;
  std::optional<int32_t> dynamic_bucket_assigner_parallelism_;
  std::string file_format_;
  std::string file_compression_;
  int32_t zstd_level_ = 1;
  std::string manifest_format_;
  std::string manifest_compression_;
  int64_t manifest_target_file_size_ = 0;
  std::string data_file_prefix_;
  std::string changelog_file_prefix_;
  bool file_suffix_include_compression_ = false;
  std::string partition_default_name_;
  bool partition_legacy_name_ = true;
  std::optional<std::string> data_file_path_directory_;
  bool force_lookup_ = false;
  bool lookup_wait_ = true;
  bool lookup_compact_gentle_ = false;
  std::optional<int32_t> lookup_compact_max_interval_;
  bool force_up_level0_ = false;
  std::optional<int64_t> optimization_interval_millis_;
  std::optional<int64_t> total_size_threshold_;
  std::optional<int64_t> incremental_size_threshold_;
  int32_t offpeak_start_hour_ = -1;
  int32_t offpeak_end_hour_ = -1;
  int32_t offpeak_ratio_ = 0;
  double small_file_ratio_ = 0.7;
  int32_t min_file_num_ = 5;
  int32_t manifest_merge_min_count_ = 30;
  int64_t manifest_full_compaction_threshold_size_ = 16 << 20;
  int32_t commit_max_retries_ = 10;
  std::optional<int64_t> commit_timeout_millis_;
  std::optional<int64_t> commit_min_retry_wait_millis_;
  std::optional<int64_t> commit_max_retry_wait_millis_;
  std::optional<int64_t> cross_partition_upsert_index_ttl_millis_;
  int32_t cross_partition_upsert_bootstrap_parallelism_ = 10;
  MergeEngine merge_engine_ = MergeEngine::kDeduplicate;
  std::vector<std::string> sequence_field_;
  SequenceSortOrder sequence_sort_order_ = SequenceSortOrder::kAscending;
  bool ignore_delete_ = false;
  bool ignore_update_before_ = false;
  bool pu_remove_on_delete_ = false;
  std::vector<std::string> pu_remove_on_sequence_group_;
  bool agg_remove_on_delete_ = false;
  std::optional<std::string> default_agg_function_;
  std::optional<std::string> rowkind_field_;
  std::vector<SequenceGroup> sequence_groups_;
  int64_t write_buffer_size_ = 0;
  bool write_buffer_spillable_ = true;
  std::optional<int64_t> target_file_size_;
  int32_t compaction_trigger_ = 5;
  std::optional<int32_t> stop_trigger_;
  std::optional<int32_t> num_levels_;
  int32_t max_size_amp_ = 200;
  int32_t size_ratio_ = 1;
  std::optional<int32_t> full_compaction_delta_commits_;
  bool write_only_ = false;
  ChangelogProducer changelog_producer_ = ChangelogProducer::kNone;
  bool changelog_row_deduplicate_ = false;
  bool deletion_vectors_enabled_ = false;
  bool deletion_vectors_bitmap64_ = false;
  std::string stats_mode_;
  bool stats_dense_store_ = true;
  int32_t stats_keep_first_n_ = -1;
  bool file_index_read_enabled_ = true;
  int64_t file_index_in_manifest_ = 0;
  bool row_tracking_enabled_ = false;
  bool data_evolution_enabled_ = false;
  std::optional<std::string> fallback_branch_;
  std::optional<int64_t> tag_default_time_retained_millis_;
  std::optional<int32_t> tag_num_retained_max_;
  StartupMode scan_mode_ = StartupMode::kDefault;
  std::optional<int64_t> scan_snapshot_id_;
  std::optional<int64_t> scan_timestamp_millis_;
  std::optional<std::string> scan_timestamp_;
  std::optional<int64_t> scan_file_creation_time_millis_;
  std::optional<int64_t> scan_creation_time_millis_;
  std::optional<int64_t> scan_bounded_watermark_;
  bool streaming_read_overwrite_ = false;
  std::optional<std::string> consumer_id_;
  std::optional<int64_t> consumer_expiration_millis_;
  ConsumerMode consumer_mode_ = ConsumerMode::kExactlyOnce;
  bool consumer_ignore_progress_ = false;
  bool consumer_changelog_only_ = false;
};

}  // namespace sluice
