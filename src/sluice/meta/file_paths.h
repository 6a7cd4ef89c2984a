// Every path and file-name rule of a Paimon table in one place (Java FileStorePathFactory,
// DataFilePathFactory, SnapshotManager, SchemaManager, TagManager, BranchManager,
// ChangelogManager, PartitionPathUtils, FileUtils.listVersionedFiles).
//
//   <table>/schema/schema-<id>              per branch
//   <table>/snapshot/snapshot-<id>, EARLIEST, LATEST   per branch
//   <table>/tag/tag-<name>                  per branch
//   <table>/changelog/changelog-<id>        per branch
//   <table>/consumer/consumer-<id>          per branch
//   <table>/branch/branch-<name>/...        a branch's own copies of the directories above
//   <table>/manifest/manifest-list-<uuid>-<n>, manifest-<uuid>-<n>, index-manifest-<uuid>-<n>
//   <table>/index/index-<uuid>-<n>
//   <table>/statistics/stat-<uuid>-<n>
//   <table>[/<data-file.path-directory>]/<k1>=<v1>/.../bucket-<b>/<data file>
//
// Manifests, index, statistics and data files are shared by all branches and always live under
// the table root. Paths are plain strings joined with '/'.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

inline constexpr std::string_view kMainBranch = "main";
inline constexpr std::string_view kDefaultPartitionName = "__DEFAULT_PARTITION__";
inline constexpr std::string_view kLatestHint = "LATEST";
inline constexpr std::string_view kEarliestHint = "EARLIEST";
inline constexpr std::string_view kSchemaPrefix = "schema-";
inline constexpr std::string_view kSnapshotPrefix = "snapshot-";
inline constexpr std::string_view kTagPrefix = "tag-";
inline constexpr std::string_view kBranchPrefix = "branch-";
inline constexpr std::string_view kChangelogPrefix = "changelog-";
inline constexpr std::string_view kConsumerPrefix = "consumer-";
inline constexpr std::string_view kManifestPrefix = "manifest-";
inline constexpr std::string_view kManifestListPrefix = "manifest-list-";
inline constexpr std::string_view kIndexManifestPrefix = "index-manifest-";
inline constexpr std::string_view kIndexPrefix = "index-";
inline constexpr std::string_view kStatisticsPrefix = "stat-";
inline constexpr std::string_view kBucketPrefix = "bucket-";
inline constexpr std::string_view kDataFilePrefix = "data-";
inline constexpr std::string_view kFileIndexSuffix = ".index";
// Bucket number of the postpone bucket (`bucket = -2` tables), directory `bucket-postpone`.
inline constexpr int32_t kPostponeBucket = -2;

// ---- Branches --------------------------------------------------------------------------------

// Blank names mean the main branch (Java BranchManager.normalizeBranch).
std::string NormalizeBranch(std::string_view branch);
bool IsMainBranch(std::string_view branch);
// `table` for the main branch, `<table>/branch/branch-<name>` otherwise.
std::string BranchPath(std::string_view table, std::string_view branch);
// `<table>/branch`: the directory holding every branch-<name> directory.
std::string BranchDir(std::string_view table);

// ---- Per-branch metadata (pass BranchPath(table, branch)) -------------------------------------

std::string SchemaDir(std::string_view branch_path);
std::string SchemaPath(std::string_view branch_path, int64_t schema_id);
std::string SnapshotDir(std::string_view branch_path);
std::string SnapshotPath(std::string_view branch_path, int64_t snapshot_id);
std::string TagDir(std::string_view branch_path);
std::string TagPath(std::string_view branch_path, std::string_view tag_name);
std::string ChangelogDir(std::string_view branch_path);
std::string ChangelogPath(std::string_view branch_path, int64_t snapshot_id);
std::string ConsumerDir(std::string_view branch_path);
std::string ConsumerPath(std::string_view branch_path, std::string_view consumer_id);
// `<dir>/LATEST`, `<dir>/EARLIEST` for a snapshot or changelog directory.
std::string LatestHintPath(std::string_view dir);
std::string EarliestHintPath(std::string_view dir);

// ---- Shared files (under the table root) ------------------------------------------------------

std::string ManifestDir(std::string_view table);
// Manifests, manifest lists and index manifests are all in manifest/.
std::string ManifestFilePath(std::string_view table, std::string_view file_name);
std::string IndexDir(std::string_view table);
std::string IndexFilePath(std::string_view table, std::string_view file_name);
std::string StatisticsDir(std::string_view table);
std::string StatisticsFilePath(std::string_view table, std::string_view file_name);

// New file names: `<prefix><uuid>-<n>`.
std::string ManifestFileName(std::string_view uuid, int64_t n);
std::string ManifestListFileName(std::string_view uuid, int64_t n);
std::string IndexManifestFileName(std::string_view uuid, int64_t n);
std::string IndexFileName(std::string_view uuid, int64_t n);
std::string StatisticsFileName(std::string_view uuid, int64_t n);

// ---- Versioned file names ---------------------------------------------------------------------

// The id of `<prefix><id>` (Java Long.parseLong of the suffix: optional sign, decimal digits,
// 64-bit range), or nullopt for names that do not match (e.g. `snapshot-1<uuid>.tmp`).
std::optional<int64_t> ParseVersionedFileName(std::string_view file_name, std::string_view prefix);
// A hint file's content (Java Long.parseLong of the whole text: no whitespace, no newline).
std::optional<int64_t> ParseHintContent(std::string_view content);

// ---- Data files -------------------------------------------------------------------------------

// Escapes a partition key or value for a directory name: U+0000-U+001F, U+007F and
// `"#%'*/:=?\{}[]^` become `%XX` (uppercase hex); everything else is kept.
std::string EscapePartitionPathName(std::string_view s);
// Reverses EscapePartitionPathName (every `%XX` with two hex digits becomes that character).
std::string UnescapePartitionPathName(std::string_view s);

// A partition value as it appears in a directory name. nullopt, "" and whitespace-only values
// use `default_name` (option `partition.default-name`).
std::string PartitionValueText(const std::optional<std::string>& value,
                               std::string_view default_name = kDefaultPartitionName);

// The text of a partition value under `partition.legacy-name = true` (the default): Java's
// toString() of the internal value. CHAR/VARCHAR as is, integers in decimal, BOOLEAN
// true/false, FLOAT/DOUBLE as Java Float/Double.toString ("1.0", "1.0E10"), DECIMAL plain at
// its scale ("12.30"), DATE as days since the epoch ("19723"), TIME as milliseconds of the day,
// TIMESTAMP / TIMESTAMP_LTZ as Java LocalDateTime.toString ("2024-01-01T12:30",
// "2024-01-01T12:30:05.120"). nullopt for null. NotSupported for binary and nested types
// (Java would write an object identity).
Result<std::optional<std::string>> LegacyPartitionValueText(const Value& value,
                                                            const DataType& type);

// Java LocalDateTime.toString of a timestamp taken as UTC wall-clock time.
std::string JavaLocalDateTimeString(const Timestamp& ts);

// `k1=v1/k2=v2/` (with the trailing '/', escaped, values mapped by PartitionValueText), or ""
// for an unpartitioned table. `spec` holds the partition keys in schema order with their value
// text (CHAR/VARCHAR as is, integers in decimal, DATE as days since epoch, ...; section 1.5 of
// the format spec).
std::string PartitionPath(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& spec,
    std::string_view default_name = kDefaultPartitionName);

// `bucket-<b>`, or `bucket-postpone` for kPostponeBucket.
std::string BucketDirName(int32_t bucket);
// `[<data_path_directory>/]<partition_path>bucket-<b>` relative to the table (Java
// relativeBucketPath); `partition_path` as returned by PartitionPath().
std::string RelativeBucketPath(std::string_view partition_path, int32_t bucket,
                               std::string_view data_path_directory = {});
// `<table>/<relative bucket path>`.
std::string BucketPath(std::string_view table, std::string_view partition_path, int32_t bucket,
                       std::string_view data_path_directory = {});
// Where a data file is: its external path when the manifest records one, else
// `<bucket_path>/<file_name>`.
std::string DataFilePath(std::string_view bucket_path, std::string_view file_name,
                         const std::optional<std::string>& external_path = std::nullopt);
// The file index of a data file: `<data file path>.index`.
std::string DataFileIndexPath(std::string_view data_file_path);

// The compression part of a data file extension for option `file.compression` (`zst`, `gz`,
// `bz2`, `deflate`, `snappy`, `lz4`, the name itself for others), or "" for none.
std::string CompressionFileExtension(std::string_view compression);
// The extension of new data files: `.<format>`; `.<ext>.<format>` when
// `file.suffix.include.compression`; `.<format>.<ext>` for text formats (csv, json) with
// compression.
std::string DataFileExtension(std::string_view format, std::string_view compression,
                              bool suffix_include_compression);
// `<prefix><uuid>-<n><extension>`.
std::string DataFileName(std::string_view prefix, std::string_view uuid, int64_t n,
                         std::string_view extension);
// The format of a data file from its name (`orc`, `parquet`, `avro`, ...): the last extension,
// or the one before when the last is a compression extension. nullopt when there is none.
std::optional<std::string> FormatFromFileName(std::string_view file_name);

}  // namespace sluice
