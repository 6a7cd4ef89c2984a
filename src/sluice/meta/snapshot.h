// Snapshot: the content of `snapshot/snapshot-<id>` (Java Snapshot), one committed version of a
// table.
//
// Every key any Paimon release writes is read except `logOffsets` (<= 1.3, ignored by every
// reader, and by Java 1.4 as an unknown key). ToJson() writes what Java 1.4 (Snapshot.java in
// paimon-api) writes: every nullable key is @JsonInclude(NON_NULL), so an absent or null value
// is left out, never written as `null`; `logOffsets` is never written. A file an older writer
// wrote (`"changelogManifestList" : null`, `"logOffsets" : { }`) is thus written back without
// those keys, as Java 1.4 does. The keys of later releases (uuid, writerVersion, operation) are
// written when present. Keys come in Java's declaration order, the same in every release.
// Unknown keys are ignored, as Java >= 0.8 does.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/base/json_fwd.h"
#include "sluice/base/json_writer.h"
#include "sluice/result.h"

namespace sluice {

enum class CommitKind : unsigned char { kAppend, kCompact, kOverwrite, kAnalyze };

// "APPEND", "COMPACT", "OVERWRITE", "ANALYZE".
std::string_view CommitKindName(CommitKind kind);
// InvalidArgument for any other name.
Result<CommitKind> CommitKindFromName(std::string_view name);

// The logical operation of a commit (2.0+ `operation` key, Java Snapshot.Operation).
enum class SnapshotOperation : unsigned char {
  kWrite,
  kOverwrite,
  kDelete,
  kTruncate,
  kUpdate,
  kMerge,
  kCreateTableAsSelect,
  kReplaceTableAsSelect,
  kCreateOrReplaceTableAsSelect,
};

std::string_view SnapshotOperationName(SnapshotOperation op);
Result<SnapshotOperation> SnapshotOperationFromName(std::string_view name);

// The keys of a snapshot file, in the order Java writes them.
enum class SnapshotKey : unsigned char {
  kVersion,
  kUuid,
  kId,
  kSchemaId,
  kBaseManifestList,
  kBaseManifestListSize,
  kDeltaManifestList,
  kDeltaManifestListSize,
  kChangelogManifestList,
  kChangelogManifestListSize,
  kIndexManifest,
  kCommitUser,
  kWriterVersion,
  kCommitIdentifier,
  kCommitKind,
  kTimeMillis,
  kTotalRecordCount,
  kDeltaRecordCount,
  kChangelogRecordCount,
  kWatermark,
  kStatistics,
  kProperties,
  kNextRowId,
  kOperation,
};

std::string_view SnapshotKeyName(SnapshotKey key);

struct Snapshot {
  static constexpr int32_t kCurrentVersion = 3;
  static constexpr int64_t kFirstSnapshotId = 1;
  // commitIdentifier of batch writes (Java BatchWriteBuilder.COMMIT_IDENTIFIER).
  static constexpr int64_t kBatchCommitIdentifier = INT64_MAX;

  int32_t version = kCurrentVersion;
  std::optional<std::string> uuid;  // 2.0+
  int64_t id = 0;
  int64_t schema_id = 0;
  // File names in manifest/ of the manifest lists.
  std::string base_manifest_list;
  std::optional<int64_t> base_manifest_list_size;  // 1.1+
  std::string delta_manifest_list;
  std::optional<int64_t> delta_manifest_list_size;  // 1.1+
  std::optional<std::string> changelog_manifest_list;
  std::optional<int64_t> changelog_manifest_list_size;  // 1.1+
  std::optional<std::string> index_manifest;            // 0.5+
  std::string commit_user;
  std::optional<std::string> writer_version;  // main
  int64_t commit_identifier = 0;
  CommitKind commit_kind = CommitKind::kAppend;
  int64_t time_millis = 0;
  // Always present since 0.4 (null only in table-store 0.3 files).
  std::optional<int64_t> total_record_count;
  std::optional<int64_t> delta_record_count;
  std::optional<int64_t> changelog_record_count;
  // Absent (or Long.MIN_VALUE, written by some Flink jobs) when there is no watermark.
  std::optional<int64_t> watermark;
  std::optional<std::string> statistics;  // 0.7+: file name in statistics/
  std::optional<std::vector<std::pair<std::string, std::string>>> properties;  // 1.2+
  std::optional<int64_t> next_row_id;                                          // 1.3+
  std::optional<SnapshotOperation> operation;                                  // 2.0+

  // TODO(issue 30): table/sink/file_store_commit.cc still sets these two, which no longer
  // reach the file; remove them with those lines.
  std::optional<std::vector<std::pair<int32_t, int64_t>>> log_offsets;
  void SetNullKey(SnapshotKey) {}

  // Parses the JSON text of a snapshot file. Errors (Corruption) name the field; callers add
  // the file path.
  static Result<Snapshot> FromJson(std::string_view json_text);
  static Result<Snapshot> FromJsonValue(const Json& json);
  // The file content Java writes (Jackson pretty printer, no final newline).
  std::string ToJson() const;
  // Writes the snapshot's keys into an object the caller has begun (tags add their own keys).
  void WriteJsonFields(JsonWriter* writer) const;

  bool operator==(const Snapshot&) const = default;
};

}  // namespace sluice
