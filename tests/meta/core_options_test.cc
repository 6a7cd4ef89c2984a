#include "sluice/meta/core_options.h"

#include <gtest/gtest.h>

#include "sluice/meta/option_value.h"
#include "test_util.h"

namespace sluice {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

CoreOptions MustMake(const TableOptions& options, const DynamicOptions& dynamic = {}) {
  Result<CoreOptions> result = CoreOptions::Make(options, dynamic);
  EXPECT_OK(result);
  return std::move(result).value();
}

void ExpectBad(const TableOptions& options, const std::string& key, const std::string& value) {
  EXPECT_TRUE(
      test::HasError(CoreOptions::Make(options), StatusCode::kInvalidArgument, {key, value}))
      << key;
}

TEST(CoreOptionsTest, DefaultsAreJavas) {
  CoreOptions o = MustMake({});
  EXPECT_EQ(o.bucket(), -1);
  EXPECT_TRUE(o.bucket_key().empty());
  EXPECT_EQ(o.file_format(), "parquet");
  EXPECT_EQ(o.file_compression(), "zstd");
  EXPECT_EQ(o.file_compression_zstd_level(), 1);
  EXPECT_EQ(o.manifest_format(), "avro");
  EXPECT_EQ(o.manifest_compression(), "zstd");
  EXPECT_EQ(o.manifest_target_file_size(), 8 * kMiB);
  EXPECT_EQ(o.data_file_prefix(), "data-");
  EXPECT_EQ(o.changelog_file_prefix(), "changelog-");
  EXPECT_FALSE(o.file_suffix_include_compression());
  EXPECT_EQ(o.partition_default_name(), "__DEFAULT_PARTITION__");
  EXPECT_TRUE(o.partition_legacy_name());
  EXPECT_EQ(o.merge_engine(), MergeEngine::kDeduplicate);
  EXPECT_TRUE(o.sequence_field().empty());
  EXPECT_EQ(o.sequence_field_sort_order(), SequenceSortOrder::kAscending);
  EXPECT_FALSE(o.ignore_delete());
  EXPECT_FALSE(o.ignore_update_before());
  EXPECT_FALSE(o.partial_update_remove_record_on_delete());
  EXPECT_TRUE(o.partial_update_remove_record_on_sequence_group().empty());
  EXPECT_FALSE(o.aggregation_remove_record_on_delete());
  EXPECT_FALSE(o.fields_default_aggregate_function().has_value());
  EXPECT_FALSE(o.rowkind_field().has_value());
  EXPECT_TRUE(o.sequence_groups().empty());
  EXPECT_EQ(o.write_buffer_size(), 256 * kMiB);
  EXPECT_TRUE(o.write_buffer_spillable());
  EXPECT_EQ(o.TargetFileSize(true), 128 * kMiB);
  EXPECT_EQ(o.TargetFileSize(false), 256 * kMiB);
  EXPECT_EQ(o.num_sorted_run_compaction_trigger(), 5);
  EXPECT_EQ(o.num_sorted_run_stop_trigger(), 8);
  EXPECT_EQ(o.num_levels(), 6);
  EXPECT_EQ(o.compaction_max_size_amplification_percent(), 200);
  EXPECT_EQ(o.compaction_size_ratio(), 1);
  EXPECT_FALSE(o.full_compaction_delta_commits().has_value());
  EXPECT_FALSE(o.write_only());
  EXPECT_EQ(o.changelog_producer(), ChangelogProducer::kNone);
  EXPECT_FALSE(o.changelog_producer_row_deduplicate());
  EXPECT_FALSE(o.deletion_vectors_enabled());
  EXPECT_FALSE(o.deletion_vectors_bitmap64());
  EXPECT_EQ(o.metadata_stats_mode(), "truncate(16)");
  EXPECT_TRUE(o.metadata_stats_dense_store());
  EXPECT_EQ(o.metadata_stats_keep_first_n_columns(), -1);
  EXPECT_TRUE(o.file_index_read_enabled());
  EXPECT_EQ(o.file_index_in_manifest_threshold(), 500);
  EXPECT_TRUE(o.FileIndexColumns("bloom-filter").empty());
  EXPECT_FALSE(o.row_tracking_enabled());
  EXPECT_FALSE(o.data_evolution_enabled());
  EXPECT_FALSE(o.scan_fallback_branch().has_value());
  // Per-field defaults.
  EXPECT_FALSE(o.FieldAggregateFunction("f").has_value());
  EXPECT_FALSE(o.FieldIgnoreRetract("f"));
  EXPECT_FALSE(o.FieldDistinct("f"));
  EXPECT_EQ(o.FieldListAggDelimiter("f"), ",");
  EXPECT_TRUE(o.FieldNestedKey("f").empty());
  EXPECT_EQ(o.FieldNestedKeyNullStrategy("f"), NestedKeyNullStrategy::kMerge);
  EXPECT_FALSE(o.HasFieldNestedKeyNullStrategy("f"));
  EXPECT_TRUE(o.FieldNestedSequenceField("f").empty());
  EXPECT_EQ(o.FieldCountLimit("f"), 2147483647);
  EXPECT_FALSE(o.FieldMergeMapTsField("f").has_value());
  EXPECT_FALSE(o.FieldStatsMode("f").has_value());
}

TEST(CoreOptionsTest, SetValuesAreTyped) {
  CoreOptions o = MustMake({{"bucket", "4"},
                            {"bucket-key", "a, b"},
                            {"file.format", "ORC"},
                            {"file.compression", "lz4"},
                            {"file.compression.zstd-level", "3"},
                            {"manifest.format", "orc"},
                            {"manifest.compression", "none"},
                            {"manifest.target-file-size", "16 MB"},
                            {"merge-engine", "Partial-Update"},
                            {"sequence.field", "ts, ts2"},
                            {"sequence.field.sort-order", "DESCENDING"},
                            {"ignore-update-before", "TRUE"},
                            {"partial-update.remove-record-on-delete", "true"},
                            {"partial-update.remove-record-on-sequence-group", "g1,g2"},
                            {"aggregation.remove-record-on-delete", "True"},
                            {"fields.default-aggregate-function", "sum"},
                            {"fields.a.aggregate-function", "max"},
                            {"fields.a.ignore-retract", "true"},
                            {"fields.b.distinct", "true"},
                            {"fields.b.list-agg-delimiter", ";"},
                            {"fields.c.nested-key", "k1, k2"},
                            {"fields.c.nested-key-null-strategy", "IGNORE"},
                            {"fields.c.nested-sequence-field", "s"},
                            {"fields.c.count-limit", "10"},
                            {"fields.d.ts-field", "t"},
                            {"fields.d.stats-mode", "full"},
                            {"fields.g1,g2.sequence-group", "x,y"},
                            {"fields.g3.sequence-group", "z"},
                            {"rowkind.field", "op"},
                            {"deletion-vectors.enabled", "true"},
                            {"deletion-vectors.bitmap64", "true"},
                            {"changelog-producer", "full-compaction"},
                            {"changelog-producer.row-deduplicate", "true"},
                            {"partition.default-name", "NULLP"},
                            {"partition.legacy-name", "false"},
                            {"scan.fallback-branch", "fb"},
                            {"write-buffer-size", "64mb"},
                            {"write-buffer-spillable", "false"},
                            {"target-file-size", "1 gb"},
                            {"num-sorted-run.compaction-trigger", "3"},
                            {"compaction.max-size-amplification-percent", "150"},
                            {"compaction.size-ratio", "2"},
                            {"full-compaction.delta-commits", "7"},
                            {"metadata.stats-mode", "none"},
                            {"metadata.stats-dense-store", "false"},
                            {"metadata.stats-keep-first-n-columns", "4"},
                            {"row-tracking.enabled", "true"},
                            {"data-evolution.enabled", "true"},
                            {"file-index.bloom-filter.columns", "a,b"},
                            {"file-index.bloom-filter.a.fpp", "0.01"},
                            {"file-index.in-manifest-threshold", "1 kb"},
                            {"file-index.read.enabled", "false"},
                            {"data-file.prefix", "d-"},
                            {"changelog-file.prefix", "c-"},
                            {"file.suffix.include.compression", "true"}});
  EXPECT_EQ(o.bucket(), 4);
  EXPECT_EQ(o.bucket_key(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(o.file_format(), "orc");
  EXPECT_EQ(o.file_compression(), "lz4");
  EXPECT_EQ(o.file_compression_zstd_level(), 3);
  EXPECT_EQ(o.manifest_format(), "orc");
  EXPECT_EQ(o.manifest_compression(), "none");
  EXPECT_EQ(o.manifest_target_file_size(), 16 * kMiB);
  EXPECT_EQ(o.merge_engine(), MergeEngine::kPartialUpdate);
  EXPECT_EQ(o.sequence_field(), (std::vector<std::string>{"ts", "ts2"}));
  EXPECT_EQ(o.sequence_field_sort_order(), SequenceSortOrder::kDescending);
  EXPECT_TRUE(o.ignore_update_before());
  EXPECT_TRUE(o.partial_update_remove_record_on_delete());
  EXPECT_EQ(o.partial_update_remove_record_on_sequence_group(),
            (std::vector<std::string>{"g1", "g2"}));
  EXPECT_TRUE(o.aggregation_remove_record_on_delete());
  EXPECT_EQ(o.fields_default_aggregate_function(), "sum");
  EXPECT_EQ(o.FieldAggregateFunction("a"), "max");
  EXPECT_TRUE(o.FieldIgnoreRetract("a"));
  EXPECT_FALSE(o.FieldIgnoreRetract("b"));
  EXPECT_TRUE(o.FieldDistinct("b"));
  EXPECT_EQ(o.FieldListAggDelimiter("b"), ";");
  EXPECT_EQ(o.FieldNestedKey("c"), (std::vector<std::string>{"k1", "k2"}));
  EXPECT_EQ(o.FieldNestedKeyNullStrategy("c"), NestedKeyNullStrategy::kIgnore);
  EXPECT_TRUE(o.HasFieldNestedKeyNullStrategy("c"));
  EXPECT_EQ(o.FieldNestedSequenceField("c"), (std::vector<std::string>{"s"}));
  EXPECT_EQ(o.FieldCountLimit("c"), 10);
  EXPECT_EQ(o.FieldMergeMapTsField("d"), "t");
  EXPECT_EQ(o.FieldStatsMode("d"), "full");
  ASSERT_EQ(o.sequence_groups().size(), 2u);
  EXPECT_EQ(o.sequence_groups()[0].ordering_fields, (std::vector<std::string>{"g1", "g2"}));
  EXPECT_EQ(o.sequence_groups()[0].protected_fields, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(o.sequence_groups()[1].ordering_fields, (std::vector<std::string>{"g3"}));
  EXPECT_EQ(o.rowkind_field(), "op");
  EXPECT_TRUE(o.deletion_vectors_enabled());
  EXPECT_TRUE(o.deletion_vectors_bitmap64());
  EXPECT_EQ(o.changelog_producer(), ChangelogProducer::kFullCompaction);
  EXPECT_EQ(ChangelogProducerName(o.changelog_producer()), "full-compaction");
  EXPECT_EQ(MergeEngineName(o.merge_engine()), "partial-update");
  EXPECT_TRUE(o.changelog_producer_row_deduplicate());
  EXPECT_EQ(o.partition_default_name(), "NULLP");
  EXPECT_FALSE(o.partition_legacy_name());
  EXPECT_EQ(o.scan_fallback_branch(), "fb");
  EXPECT_EQ(o.write_buffer_size(), 64 * kMiB);
  EXPECT_FALSE(o.write_buffer_spillable());
  EXPECT_EQ(o.TargetFileSize(true), 1024 * kMiB);
  EXPECT_EQ(o.TargetFileSize(false), 1024 * kMiB);
  EXPECT_EQ(o.num_sorted_run_compaction_trigger(), 3);
  EXPECT_EQ(o.num_sorted_run_stop_trigger(), 6);
  EXPECT_EQ(o.num_levels(), 4);
  EXPECT_EQ(o.compaction_max_size_amplification_percent(), 150);
  EXPECT_EQ(o.compaction_size_ratio(), 2);
  EXPECT_EQ(o.full_compaction_delta_commits(), 7);
  EXPECT_EQ(o.metadata_stats_mode(), "none");
  EXPECT_FALSE(o.metadata_stats_dense_store());
  EXPECT_EQ(o.metadata_stats_keep_first_n_columns(), 4);
  EXPECT_TRUE(o.row_tracking_enabled());
  EXPECT_TRUE(o.data_evolution_enabled());
  EXPECT_EQ(o.FileIndexColumns("bloom-filter"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(o.file_index_in_manifest_threshold(), 1024);
  EXPECT_FALSE(o.file_index_read_enabled());
  EXPECT_EQ(o.data_file_prefix(), "d-");
  EXPECT_EQ(o.changelog_file_prefix(), "c-");
  EXPECT_TRUE(o.file_suffix_include_compression());
  TableOptions file_index = o.WithPrefix("file-index.bloom-filter.");
  ASSERT_EQ(file_index.size(), 2u);
  EXPECT_EQ(file_index[0], (std::pair<std::string, std::string>{"columns", "a,b"}));
  EXPECT_EQ(file_index[1], (std::pair<std::string, std::string>{"a.fpp", "0.01"}));
}

TEST(CoreOptionsTest, StopTriggerNeverBelowTriggerAndExplicitLevels) {
  CoreOptions o = MustMake({{"num-sorted-run.compaction-trigger", "10"},
                            {"num-sorted-run.stop-trigger", "4"},
                            {"num-levels", "3"}});
  EXPECT_EQ(o.num_sorted_run_stop_trigger(), 10);
  EXPECT_EQ(o.num_levels(), 3);
  CoreOptions big = MustMake({{"num-sorted-run.compaction-trigger", "2147483647"}});
  EXPECT_EQ(big.num_sorted_run_stop_trigger(), 2147483647);
  EXPECT_EQ(big.num_levels(), 2147483647);
}

TEST(CoreOptionsTest, IgnoreDeleteAliases) {
  for (const char* key : {"ignore-delete", "first-row.ignore-delete", "deduplicate.ignore-delete",
                          "partial-update.ignore-delete"}) {
    EXPECT_TRUE(MustMake({{key, "true"}}).ignore_delete()) << key;
    EXPECT_FALSE(MustMake({{key, "false"}}).ignore_delete()) << key;
  }
  // The main key wins over the fallback keys; the first fallback key set wins over later ones.
  EXPECT_FALSE(MustMake({{"partial-update.ignore-delete", "true"}, {"ignore-delete", "false"}})
                   .ignore_delete());
  EXPECT_TRUE(
      MustMake({{"partial-update.ignore-delete", "false"}, {"first-row.ignore-delete", "true"}})
          .ignore_delete());
}

TEST(CoreOptionsTest, WriteOnlyFallbackKey) {
  EXPECT_TRUE(MustMake({{"write.compaction-skip", "true"}}).write_only());
  EXPECT_FALSE(MustMake({{"write.compaction-skip", "true"}, {"write-only", "false"}}).write_only());
}

TEST(CoreOptionsTest, DynamicOptionsOverrideSchemaOptions) {
  CoreOptions o = MustMake({{"merge-engine", "aggregation"}, {"bucket", "2"}},
                           {{"merge-engine", "first-row"}, {"ignore-delete", "true"}});
  EXPECT_EQ(o.merge_engine(), MergeEngine::kFirstRow);
  EXPECT_TRUE(o.ignore_delete());
  EXPECT_EQ(o.bucket(), 2);
  ASSERT_EQ(o.options().size(), 3u);
  EXPECT_EQ(o.options()[0].first, "merge-engine");
  EXPECT_EQ(o.options()[0].second, "first-row");
  EXPECT_EQ(o.options()[2].first, "ignore-delete");
  ASSERT_NE(o.Find("bucket"), nullptr);
  EXPECT_EQ(*o.Find("bucket"), "2");
  EXPECT_EQ(o.Find("nope"), nullptr);
}

TEST(CoreOptionsTest, FromSchemaUsesTheSchemaOptions) {
  Result<TableSchema> schema = TableSchema::Make(
      3, 0,
      {DataField{0, "k", DataType::Int(false), {}, {}}, DataField{1, "v", DataType::Int(), {}, {}}},
      1, {}, {"k"}, {{"merge-engine", "aggregation"}, {"fields.v.aggregate-function", "sum"}},
      std::nullopt, 0);
  ASSERT_OK(schema);
  Result<CoreOptions> o = CoreOptions::FromSchema(*schema, {{"fields.v.ignore-retract", "true"}});
  ASSERT_OK(o);
  EXPECT_EQ(o->merge_engine(), MergeEngine::kAggregation);
  EXPECT_EQ(o->FieldAggregateFunction("v"), "sum");
  EXPECT_TRUE(o->FieldIgnoreRetract("v"));
}

TEST(CoreOptionsTest, BadValuesNameKeyAndValue) {
  ExpectBad({{"bucket", "four"}}, "bucket", "four");
  ExpectBad({{"bucket", "4.0"}}, "bucket", "4.0");
  ExpectBad({{"bucket", "99999999999"}}, "bucket", "99999999999");
  ExpectBad({{"merge-engine", "dedup"}}, "merge-engine", "dedup");
  ExpectBad({{"sequence.field.sort-order", "up"}}, "sequence.field.sort-order", "up");
  ExpectBad({{"ignore-delete", "yes"}}, "ignore-delete", "yes");
  ExpectBad({{"partial-update.ignore-delete", "1"}}, "partial-update.ignore-delete", "1");
  ExpectBad({{"write-buffer-size", "256 parsecs"}}, "write-buffer-size", "256 parsecs");
  ExpectBad({{"write-buffer-size", "mb"}}, "write-buffer-size", "mb");
  ExpectBad({{"target-file-size", "-1 mb"}}, "target-file-size", "-1 mb");
  ExpectBad({{"target-file-size", "99999999999 tb"}}, "target-file-size", "99999999999 tb");
  ExpectBad({{"changelog-producer", "always"}}, "changelog-producer", "always");
  ExpectBad({{"num-sorted-run.stop-trigger", "x"}}, "num-sorted-run.stop-trigger", "x");
  ExpectBad({{"num-levels", ""}}, "num-levels", "");
  ExpectBad({{"full-compaction.delta-commits", "1e3"}}, "full-compaction.delta-commits", "1e3");
  ExpectBad({{"deletion-vectors.enabled", "on"}}, "deletion-vectors.enabled", "on");
  ExpectBad({{"metadata.stats-dense-store", "nope"}}, "metadata.stats-dense-store", "nope");
  ExpectBad({{"fields.a.ignore-retract", "maybe"}}, "fields.a.ignore-retract", "maybe");
  ExpectBad({{"fields.a.distinct", "2"}}, "fields.a.distinct", "2");
  ExpectBad({{"fields.a.count-limit", "ten"}}, "fields.a.count-limit", "ten");
  ExpectBad({{"fields.a.nested-key-null-strategy", "drop"}}, "fields.a.nested-key-null-strategy",
            "drop");
  ExpectBad({{"file-index.in-manifest-threshold", "big"}}, "file-index.in-manifest-threshold",
            "big");
  // A dynamic override is checked too.
  EXPECT_TRUE(test::HasError(CoreOptions::Make({}, {{"bucket", "x"}}), StatusCode::kInvalidArgument,
                             {"option 'bucket': cannot parse 'x'"}));
}

TEST(OptionValueTest, MemorySizes) {
  EXPECT_EQ(*ParseMemorySizeOption("k", "0"), 0);
  EXPECT_EQ(*ParseMemorySizeOption("k", "500"), 500);
  EXPECT_EQ(*ParseMemorySizeOption("k", "500 B"), 500);
  EXPECT_EQ(*ParseMemorySizeOption("k", "7bytes"), 7);
  EXPECT_EQ(*ParseMemorySizeOption("k", " 2 k "), 2048);
  EXPECT_EQ(*ParseMemorySizeOption("k", "2KB"), 2048);
  EXPECT_EQ(*ParseMemorySizeOption("k", "2 kibibytes"), 2048);
  EXPECT_EQ(*ParseMemorySizeOption("k", "256 mb"), 256 * kMiB);
  EXPECT_EQ(*ParseMemorySizeOption("k", "3 mebibytes"), 3 * kMiB);
  EXPECT_EQ(*ParseMemorySizeOption("k", "1g"), 1024 * kMiB);
  EXPECT_EQ(*ParseMemorySizeOption("k", "1 gibibytes"), 1024 * kMiB);
  EXPECT_EQ(*ParseMemorySizeOption("k", "2 TB"), 2 * 1024 * 1024 * kMiB);
  for (std::string_view bad : {"", "1.5 mb", "10 pb", "9223372036854775807 kb"}) {
    EXPECT_TRUE(test::HasError(ParseMemorySizeOption("k", bad), StatusCode::kInvalidArgument,
                               {"option 'k': cannot parse '" + std::string(bad) + "'"}));
  }
}

TEST(OptionValueTest, Durations) {
  EXPECT_EQ(ParseDurationOption("k", "1 h")->count(), 3600000);
  EXPECT_EQ(ParseDurationOption("k", "10 s")->count(), 10000);
  EXPECT_EQ(ParseDurationOption("k", "10 ms")->count(), 10);
  EXPECT_EQ(ParseDurationOption("k", "250")->count(), 250);
  EXPECT_EQ(ParseDurationOption("k", "2min")->count(), 120000);
  EXPECT_EQ(ParseDurationOption("k", "2 m")->count(), 120000);
  EXPECT_EQ(ParseDurationOption("k", "1 d")->count(), 86400000);
  EXPECT_EQ(ParseDurationOption("k", "3 days")->count(), 3 * 86400000);
  EXPECT_EQ(ParseDurationOption("k", "2500 us")->count(), 2);
  EXPECT_EQ(ParseDurationOption("k", "5000000 ns")->count(), 5);
  EXPECT_EQ(ParseDurationOption("k", "1 Seconds")->count(), 1000);
  EXPECT_TRUE(test::HasError(ParseDurationOption("snapshot.time-retained", "1 fortnight"),
                             StatusCode::kInvalidArgument,
                             {"option 'snapshot.time-retained': cannot parse '1 fortnight'"}));
  EXPECT_TRUE(test::HasError(ParseDurationOption("k", "h"), StatusCode::kInvalidArgument,
                             {"option 'k': cannot parse 'h'"}));
}

TEST(OptionValueTest, BooleansIntsAndLists) {
  EXPECT_TRUE(*ParseBooleanOption("k", "TrUe"));
  EXPECT_FALSE(*ParseBooleanOption("k", "FALSE"));
  EXPECT_TRUE(test::HasError(ParseBooleanOption("k", " true"), StatusCode::kInvalidArgument,
                             {"option 'k': cannot parse ' true'"}));
  EXPECT_EQ(*ParseIntOption("k", "-12"), -12);
  EXPECT_EQ(*ParseIntOption("k", "+12"), 12);
  for (std::string_view bad : {"2147483648", "+-1", ""}) {
    EXPECT_TRUE(test::HasError(ParseIntOption("k", bad), StatusCode::kInvalidArgument,
                               {"option 'k': cannot parse '" + std::string(bad) + "'"}));
  }
  EXPECT_EQ(*ParseLongOption("k", "2147483648"), 2147483648LL);
  EXPECT_EQ(SplitOptionList(" a , b,c"), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(SplitOptionList("a,,b,,"), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_TRUE(SplitOptionList("").empty());
}

}  // namespace
}  // namespace sluice
