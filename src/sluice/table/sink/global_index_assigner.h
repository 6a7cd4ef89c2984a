// GlobalIndexAssigner: the partition and bucket of each row of a cross-partition upsert table
// (`bucket` = -1, a primary key without every partition key; Java BucketMode.KEY_DYNAMIC), as
// Java's crosspartition.GlobalIndexAssigner decides them.
//
// A KeyIndex (index/key_index.h) maps each primary key to the partition and bucket it lives
// in; it is bootstrapped from the latest snapshot when the assigner opens (IndexBootstrap) and
// kept up to date row by row. For each row, whatever its row kind:
//   - a key not indexed is a new key: it takes a bucket of its partition
//     (CrossPartitionBucketAssigner) and is indexed there;
//   - a key indexed in the row's partition goes to the bucket it lives in;
//   - a key indexed in another partition is handled by the merge engine's rule (Java
//     ExistingProcessor):
//       deduplicate     DeleteExistingProcessor: a DELETE of the row, moved to the old
//                       partition, goes to the old bucket (which gives its place back), then
//                       the row goes on as a new key of its own partition;
//       partial-update, UseOldExistingProcessor: the row, moved to the old partition (its
//       aggregation     partition columns set to the old partition's values), goes to the old
//                       bucket; the key stays there;
//       first-row       SkipNewExistingProcessor: the row is dropped.
// Rows that `ignore-delete` / `ignore-update-before` drop are assigned like any other and only
// then dropped: Java's writer filters row kinds after the assigner.
//
// The key index lives in a directory of its own under `tmp_dir`, removed when the assigner is
// destroyed.
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/index/cross_partition_bucket_assigner.h"
#include "sluice/index/key_index.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/row_key_extractor.h"

namespace sluice {

struct GlobalIndexAssignerOptions {
  // A local directory for the key index (Java's IOManager temp directory).
  std::string tmp_dir;
  // The key index's memory budget (Java `sink.cross-partition.managed-memory`, 256 mb).
  int64_t memory_bytes = int64_t{256} << 20;
  // Java's assigner parallelism and this assigner's subtask index: the assigner takes the
  // buckets b with Math.abs(b % num_assigners) == assign_id and bootstraps only those; the
  // caller routes each key to its assigner (CrossPartitionAssignerOf).
  int32_t num_assigners = 1;
  int32_t assign_id = 0;
  // Milliseconds since the epoch (the TTL's clock); unset: the system clock.
  std::function<int64_t()> clock_millis;
};

// The rows of one batch, routed.
struct AssignedRows {
  explicit AssignedRows(DataTypePtr row_type) : derived(std::move(row_type)) {}

  struct Route {
    const std::string* partition;  // serialized BinaryRow, owned by the assigner
    int32_t bucket;
    // In input order: r >= 0 is input row r, r < 0 is derived row ~r.
    std::vector<int64_t> rows;
  };
  // Rows the assigner made: DELETEs retracting a key from its old partition, rows moved to
  // their key's old partition. Same columns as the input.
  ColumnBatch derived;
  std::vector<RowKind> derived_kinds;
  std::vector<Route> routes;
};

// Java KeyPartRowChannelComputer: which of `num_assigners` assigners takes a primary key
// (Math.abs(hash % n) of the key's BinaryRow).
int32_t CrossPartitionAssignerOf(int32_t key_hash, int32_t num_assigners);

class GlobalIndexAssigner {
 public:
  // Opens the key index and bootstraps it from the latest snapshot. InvalidArgument for a
  // table that is not a cross-partition upsert table; Corruption naming the key when the
  // table holds a key in two buckets.
  static Result<std::unique_ptr<GlobalIndexAssigner>> Open(
      std::shared_ptr<const FileStoreTable> table, GlobalIndexAssignerOptions options);
  ~GlobalIndexAssigner();

  // Routes the rows of `batch` (the table's columns in schema order); `kinds`: nullptr (all
  // +I) or one per row. `out` is cleared first.
  Status Assign(const ColumnBatch& batch, const RowKind* kinds, AssignedRows* out);

  const KeyIndex& key_index() const { return *index_; }

 private:
  enum class ExistingProcessor { kDeleteExisting, kUseOld, kSkipNew };

  GlobalIndexAssigner(std::shared_ptr<const FileStoreTable> table,
                      GlobalIndexAssignerOptions options, RowProjectionEncoder partition,
                      RowProjectionEncoder key);
  Status Bootstrap();
  // The id of a partition (its BinaryRow bytes), given on first sight.
  Result<int32_t> PartitionId(std::string_view row_bytes);
  // Appends input row `row` with the partition columns of `partition_id` to out->derived.
  Status AddDerived(const ColumnBatch& batch, int64_t row, int32_t partition_id, RowKind kind,
                    AssignedRows* out);
  void AddRoute(int32_t partition_id, int32_t bucket, int64_t row, RowKind kind, AssignedRows* out);
  bool Dropped(RowKind kind) const;

  std::shared_ptr<const FileStoreTable> table_;
  GlobalIndexAssignerOptions options_;
  ExistingProcessor processor_;
  bool ignore_delete_ = false;
  bool ignore_update_before_ = false;
  RowProjectionEncoder partition_encoder_;
  RowProjectionEncoder key_encoder_;
  // Table column -> its position among the partition columns, or -1.
  std::vector<int> partition_position_;
  std::unique_ptr<KeyIndex> index_;
  std::unique_ptr<CrossPartitionBucketAssigner> buckets_;
  // Partitions by id: raw BinaryRow bytes, serialized form, the values as a one-row batch of
  // the partition columns (made when a row first moves there).
  struct BytesHash {
    using is_transparent = void;
    size_t operator()(std::string_view bytes) const { return std::hash<std::string_view>{}(bytes); }
  };
  std::unordered_map<std::string, int32_t, BytesHash, std::equal_to<>> partition_ids_;
  std::deque<std::string> partitions_;
  std::deque<std::string> serialized_partitions_;
  std::vector<std::unique_ptr<ColumnBatch>> partition_values_;
  int32_t last_partition_id_ = -1;
  // (partition id, bucket) -> index into AssignedRows::routes of the batch being assigned.
  std::unordered_map<uint64_t, size_t> route_of_;
};

}  // namespace sluice
