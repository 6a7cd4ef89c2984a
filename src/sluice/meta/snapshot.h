// Snapshot: the content of `snapshot/snapshot-<id>` (Java Snapshot), one committed version of a
// table.
//
// Every key any Paimon release writes is modelled. Optional keys that are absent in the file
// stay absent; keys that an older writer wrote as an explicit `null` (`changelogManifestList`
// before 1.4, `watermark` before 0.9, ...) are remembered in `null_keys` so that ToJson()
// reproduces the file byte for byte. ToJson() writes keys in Java's declaration order, which
// is the same in every release. Unknown keys are ignored, as Java >= 0.8 does.
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
  kLogOffsets,
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
  // bucket -> log offset, in file order; written by <= 1.3 (usually empty), ignored by readers.
  std::optional<std::vector<std::pair<int32_t, int64_t>>> log_offsets;
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

  // Bit (1 << SnapshotKey) set: the key was an explicit `null` in the file and is written back
  // as `null` when its value is absent.
  uint32_t null_keys = 0;

  bool IsNullKey(SnapshotKey key) const { return (null_keys >> static_cast<int>(key)) & 1u; }
  void SetNullKey(SnapshotKey key) { null_keys |= 1u << static_cast<int>(key); }

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
