// FileStoreWrite: writes rows into a table and hands the new files to a commit (Java TableWriteImpl
// with AbstractFileStoreWrite): each row's partition and bucket are computed as Java computes
// them (RowKeyExtractor), rows go to one writer per (partition, bucket), and PrepareCommit
// returns one CommitMessageImpl per writer that has something to commit.
//
// Writers are restored from the latest snapshot when a bucket is first written (or
// compacted), not at Open: a bucket's existing files (the compaction manager's starting point)
// and their largest sequence number, after which new rows number.
// Append tables get AppendOnlyWriters, primary-key tables MergeTreeWriters, whose write buffers
// share one budget of `write-buffer-size` (Java MemoryFileStoreWrite's MemoryPoolFactory):
// when it runs out, the largest buffer is flushed to make room.
//
// Dynamic-bucket tables (`bucket` = -1, the primary key holding the partition keys): a bucket
// assigner (index/bucket_assigner.h) picks each row's bucket from its key hash, and every
// bucket writer keeps the bucket's hash index (DynamicBucketIndexMaintainer), restored from the
// latest snapshot; PrepareCommit writes the HASH file of each bucket that gained a key into
// its message. Several writers share a table as Java's parallel assigners do: writer
// `dynamic_bucket_assign_id` of `dynamic_bucket_writers` takes only the keys ComputeAssigner
// routes to it (refusing or, with `dynamic_bucket_skip_others`, skipping the rest) and opens
// only its own buckets.
//
// Postpone-bucket tables (`bucket` = -2, Java BucketMode.POSTPONE_MODE): every row goes to the
// partition's postpone bucket (PostponeBucketWriter), written in Java's postpone layout (avro
// where the schema allows, `metadata.stats-mode` none, files named
// `<data-file.prefix>-u-<commit user>-s-<writer id>-w-...`); Compact rewrites a partition's
// postpone bucket into real buckets (postpone_bucket_compaction.h).
//
// Cross-partition upsert tables (`bucket` = -1, the primary key lacking a partition key): a
// GlobalIndexAssigner (global_index_assigner.h), bootstrapped from the latest snapshot at Open,
// routes each row to the partition and bucket its key lives in, or retracts it from there;
// no hash index is written (Java KEY_DYNAMIC). Several writers share such a table as Java's
// parallel assigners do: writer `dynamic_bucket_assign_id` of `dynamic_bucket_writers` takes
// only the keys CrossPartitionAssignerOf routes to it.
//
// Row kinds: +I / -U / +U / -D per row (primary-key tables), or from the `rowkind.field`
// column; `ignore-delete` drops -U and -D rows and `ignore-update-before` drops -U rows before
// they reach a writer (Java RowKindFilter).
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sluice/base/metric_registry_impl.h"
#include "sluice/column_batch.h"
#include "sluice/index/bucket_assigner.h"
#include "sluice/index/dynamic_bucket_index_maintainer.h"
#include "sluice/io/commit_message_impl.h"
#include "sluice/io/record_writer.h"
#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compact_manager.h"
#include "sluice/lsm/compaction_metrics.h"
#include "sluice/lsm/compaction_options.h"
#include "sluice/lsm/memory_pool_factory.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/global_index_assigner.h"
#include "sluice/table/sink/row_key_extractor.h"
#include "sluice/table/sink/writer_buffer_metric.h"

namespace sluice {

// The compaction manager of one primary-key bucket, given its restored files and the factory
// its rewrites should write with. Returns null for "flush only".
using CompactManagerFactory = std::function<Result<std::unique_ptr<CompactManager>>(
    const std::string& partition, int32_t bucket, const std::vector<DataFileMeta>& restored_files,
    const std::shared_ptr<DataFileWriterFactory>& file_writers)>;

struct FileStoreWriteOptions {
  // Unset: the table's own: MakeMergeTreeCompactManagerFactory (universal compaction) for
  // primary-key tables, MakeBucketedAppendCompactManager for fixed-bucket append tables, none
  // for bucket-unaware append tables and `write-only` tables. Set it to a factory returning
  // null for writers that never compact.
  CompactManagerFactory compact_manager_factory;
  // Dynamic-bucket tables: the number of writers assigning buckets in parallel and this
  // writer's id among them (Java's assigner parallelism and subtask index).
  int32_t dynamic_bucket_writers = 1;
  int32_t dynamic_bucket_assign_id = 0;
  // Whether a row routed to another writer is skipped (every writer is given every row, the
  // skip standing in for Java's shuffle to the assigners) rather than refused.
  bool dynamic_bucket_skip_others = false;
  // Who commits the files (postpone-bucket tables name their files after the commit user, as
  // Java does); empty: a fresh UUID.
  std::string commit_user;
  // An INSERT OVERWRITE: the previous hash indexes are ignored (Java SimpleHashBucketAssigner),
  // the overwritten partitions' indexes being replaced by the commit.
  bool overwrite = false;
  // Cross-partition upsert tables: the local directory the key index lives under (Java's
  // IOManager temp directories; empty: the system's temporary directory) and its memory budget
  // (Java `sink.cross-partition.managed-memory`).
  std::string tmp_dir;
  int64_t key_index_memory_bytes = int64_t{256} << 20;
  // Where the write reports (Java withMetricRegistry): the table's writerBuffer and compaction
  // groups (writer_buffer_metric.h, compaction_metrics.h); null: nowhere. REQUIRES: the
  // registry outlives the write.
  MetricRegistryImpl* metric_registry = nullptr;
};

class FileStoreWrite {
 public:
  static Result<std::unique_ptr<FileStoreWrite>> Open(std::shared_ptr<const FileStoreTable> table,
                                                      FileStoreWriteOptions options = {});
  ~FileStoreWrite();

  // Writes the rows of `batch`, whose columns are the table's columns in schema order (types
  // as the schema declares them). `kinds`: nullptr (all +I) or one kind per row.
  Status Write(const ColumnBatch& batch, const RowKind* kinds = nullptr);

  // Compacts one bucket (Java FileStoreWrite.compact): its writer is restored if none is open, its
  // buffer flushed and a compaction triggered (of every file when `full_compaction`); the
  // result joins the next PrepareCommit (wait for it with `wait_compaction`). NotSupported for
  // writers without compaction (`write-only`). Bucket-unaware append tables (bucket 0) are
  // compacted as Java's dedicated compaction job does (AppendCompactCoordinator): the
  // partition's small committed files are rewritten now and join the next PrepareCommit.
  Status Compact(const std::string& partition, int32_t bucket, bool full_compaction);

  // Flushes every writer and returns the messages of this commit (Java prepareCommit). The
  // files the messages name are durable when it returns (closed, their directories synced:
  // file_io.h), so a snapshot that names them survives a power loss with them.
  // `commit_identifier` is recorded for the caller's commit; `wait_compaction` waits for
  // running compactions, as do lookup tables (first-row, deletion vectors, lookup changelog,
  // force-lookup) unless `lookup-wait` is false: their batch reads skip level 0. When
  // `full-compaction.delta-commits` makes this a full-compaction commit (IsFullCompactionCommit)
  // the buckets written since the last one are fully compacted first and waited for.
  Result<std::vector<CommitMessageImpl>> PrepareCommit(int64_t commit_identifier,
                                                       bool wait_compaction = false);

  // Stops every writer and deletes files no commit took.
  Status Close();

  const FileStoreTable& table() const { return *table_; }
  // The writer of a partition (serialized BinaryRow) and bucket, when one is open.
  RecordWriter* WriterOf(const std::string& partition, int32_t bucket) const;
  // Cross-partition upsert tables: how often the key index spilled to disk (0 otherwise).
  int64_t key_index_spills() const {
    return global_index_ ? global_index_->key_index().spills() : 0;
  }
  // Primary-key tables: the write-buffer budget the bucket writers share (null otherwise).
  const MemoryPoolFactory* write_buffer_pool() const { return write_buffer_pool_.get(); }

 private:
  struct Restored {
    std::vector<DataFileMeta> files;
    int32_t total_buckets = 0;
    std::optional<IndexManifestEntry> hash_index;
  };
  struct BucketWriter {
    int32_t total_buckets = 0;
    std::unique_ptr<RecordWriter> writer;
    std::unique_ptr<DynamicBucketIndexMaintainer> hash_index;  // dynamic-bucket tables
  };
  using WriterKey = std::pair<std::string, int32_t>;  // serialized partition, bucket

  FileStoreWrite(std::shared_ptr<const FileStoreTable> table, FileStoreWriteOptions options,
                 RowKeyExtractor extractor);

  // Reads the live files of every bucket from the latest snapshot into restored_, unless
  // restored_ already holds that snapshot's.
  Status RefreshRestored();
  // Dynamic-bucket tables: validates the options and makes assigner_.
  Status OpenBucketAssigner();
  // Postpone-bucket tables: makes postpone_table_.
  Status OpenPostponeTable();
  Result<BucketWriter*> GetOrCreateWriter(const std::string& partition, int32_t bucket);
  // Hands `manager` (may be null) a reporter of the compaction metrics, when there are any.
  void ReportCompaction(CompactManager* manager, int32_t bucket);
  // Syncs the directories of the files `messages` add (file_io.h durability).
  Status SyncDirectoriesOf(const std::vector<CommitMessageImpl>& messages) const;
  Status RowKindsOf(const ColumnBatch& batch, const RowKind* kinds, std::vector<RowKind>* out);
  // Cross-partition upsert tables: the rows as global_index_ routes them.
  Status WriteCrossPartition(const ColumnBatch& batch, const RowKind* kinds);
  // Dynamic buckets: the HASH files of a partition in the latest snapshot, read (the
  // assigner's loader); where an index file of a bucket lies; a new one's path.
  Result<std::vector<BucketHashes>> LoadPartitionHashes(const std::string& partition);
  Result<std::string> IndexFilePathOf(const IndexManifestEntry& entry);
  Result<std::string> NewIndexFilePath(const std::string& partition, int32_t bucket);

  std::shared_ptr<const FileStoreTable> table_;
  FileStoreWriteOptions options_;
  CompactionOptions compaction_;
  RowKeyExtractor extractor_;
  int rowkind_column_ = -1;
  std::map<WriterKey, Restored> restored_;  // of snapshot restored_snapshot_id_
  int64_t restored_snapshot_id_ = -1;
  // Declared before writers_: the writers leave it as they are destroyed.
  std::unique_ptr<MemoryPoolFactory> write_buffer_pool_;
  // After write_buffer_pool_, which it reads, and before writers_, whose compact managers report
  // into it.
  std::unique_ptr<WriterBufferMetric> writer_buffer_metric_;
  std::shared_ptr<CompactionMetrics> compaction_metrics_;
  std::map<WriterKey, BucketWriter> writers_;
  std::set<WriterKey> written_since_full_compaction_;   // full-compaction.delta-commits
  std::vector<CommitMessageImpl> pending_compactions_;  // bucket-unaware compactions
  // Postpone-bucket tables: the table with the postpone layout's options.
  std::shared_ptr<const FileStoreTable> postpone_table_;
  std::unique_ptr<BucketAssigner> assigner_;  // dynamic-bucket tables
  int32_t assigner_channels_ = 1;             // its num_channels, num_assigners
  int32_t assigner_owners_ = 1;
  // The live HASH entries of snapshot hash_entries_snapshot_id_ (LoadPartitionHashes).
  std::vector<IndexManifestEntry> hash_entries_;
  int64_t hash_entries_snapshot_id_ = -1;
  std::unique_ptr<GlobalIndexAssigner> global_index_;  // cross-partition upsert tables
  std::unique_ptr<AssignedRows> assigned_;
  std::vector<int64_t> run_scratch_;
  std::string index_file_uuid_;
  int64_t index_file_count_ = 0;
  std::vector<int32_t> hashes_scratch_;
  // Dynamic buckets: a run of rows of one partition and their key hashes and buckets.
  std::vector<int64_t> run_rows_;
  std::vector<int32_t> run_hashes_;
  std::vector<int32_t> run_buckets_;
  std::vector<RowKind> kinds_scratch_;
};

}  // namespace sluice
