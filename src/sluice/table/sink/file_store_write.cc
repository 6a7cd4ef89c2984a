#include "sluice/table/sink/file_store_write.h"

#include <algorithm>
#include <filesystem>
#include <random>
#include <system_error>

#include "sluice/base/uuid.h"
#include "sluice/format/avro/avro_schema_converter.h"
#include "sluice/index/hash_index_file.h"
#include "sluice/lsm/merge_tree_writer.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/schema_validation.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/append_compact_coordinator.h"
#include "sluice/table/sink/append_compact_rewriter.h"
#include "sluice/table/sink/append_only_writer.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/sink/postpone_bucket_compaction.h"
#include "sluice/table/sink/postpone_bucket_writer.h"
#include "sluice/table/table_metric_group.h"

namespace sluice {

FileStoreWrite::FileStoreWrite(std::shared_ptr<const FileStoreTable> table,
                               FileStoreWriteOptions options, RowKeyExtractor extractor)
    : table_(std::move(table)), options_(std::move(options)), extractor_(std::move(extractor)) {}

FileStoreWrite::~FileStoreWrite() = default;

Result<std::unique_ptr<FileStoreWrite>> FileStoreWrite::Open(
    std::shared_ptr<const FileStoreTable> table, FileStoreWriteOptions options) {
  SLUICE_ASSIGN_OR_RETURN(RowKeyExtractor extractor,
                          RowKeyExtractor::Make(table->schema(), table->options()));
  if (!options.compact_manager_factory && table->schema().is_primary_key_table()) {
    SLUICE_ASSIGN_OR_RETURN(options.compact_manager_factory,
                            MakeMergeTreeCompactManagerFactory(table));
  }
  const CompactionOptions compaction =
      CompactionOptions::From(table->options(), table->schema().is_primary_key_table());
  std::unique_ptr<FileStoreWrite> write(
      new FileStoreWrite(std::move(table), std::move(options), std::move(extractor)));
  write->compaction_ = compaction;
  if (write->table_->schema().is_primary_key_table()) {
    write->write_buffer_pool_ =
        std::make_unique<MemoryPoolFactory>(write->table_->options().write_buffer_size());
  }
  if (MetricRegistryImpl* registry = write->options_.metric_registry) {
    MetricGroup group = TableMetricGroup(registry, write->table_->path());
    if (write->write_buffer_pool_) {
      write->writer_buffer_metric_ =
          std::make_unique<WriterBufferMetric>(group, write->write_buffer_pool_.get());
    }
    write->compaction_metrics_ = CompactionMetrics::Of(group);
  }
  if (write->extractor_.dynamic_bucket()) {
    SLUICE_RETURN_NOT_OK(write->OpenBucketAssigner());
  }
  if (write->extractor_.cross_partition()) {
    GlobalIndexAssignerOptions assigner;
    assigner.tmp_dir = write->options_.tmp_dir;
    if (assigner.tmp_dir.empty()) {
      std::error_code ec;
      assigner.tmp_dir = std::filesystem::temp_directory_path(ec).string();
      if (ec) return Status::IOError("no temporary directory for the key index: " + ec.message());
    }
    assigner.memory_bytes = write->options_.key_index_memory_bytes;
    assigner.num_assigners = write->options_.dynamic_bucket_writers;
    assigner.assign_id = write->options_.dynamic_bucket_assign_id;
    SLUICE_ASSIGN_OR_RETURN(write->global_index_,
                            GlobalIndexAssigner::Open(write->table_, std::move(assigner)));
    write->assigned_ = std::make_unique<AssignedRows>(write->table_->schema().LogicalRowType());
  }
  if (write->extractor_.postpone_bucket()) {
    SLUICE_RETURN_NOT_OK(write->OpenPostponeTable());
  }
  if (const auto& field = write->table_->options().rowkind_field()) {
    write->rowkind_column_ = write->table_->schema().FieldIndex(*field);
    if (write->rowkind_column_ < 0) {
      return Status::InvalidArgument("rowkind.field '" + *field + "' is not a column of " +
                                     write->table_->path());
    }
  }
  return write;
}

Status FileStoreWrite::OpenBucketAssigner() {
  const CoreOptions& options = table_->options();
  SLUICE_RETURN_NOT_OK(ValidateDynamicBucketOptions(options));
  const int32_t writers = options_.dynamic_bucket_writers;
  const int32_t id = options_.dynamic_bucket_assign_id;
  if (writers < 1 || id < 0 || id >= writers) {
    return Status::InvalidArgument("dynamic-bucket writer " + std::to_string(id) + " of " +
                                   std::to_string(writers) + " does not exist");
  }
  BucketAssignerOptions assigner;
  assigner.num_channels = writers;
  assigner.num_assigners =
      std::min(options.dynamic_bucket_initial_buckets().value_or(writers), writers);
  assigner.assign_id = id;
  assigner_channels_ = assigner.num_channels;
  assigner_owners_ = assigner.num_assigners;
  assigner.target_row_num = options.dynamic_bucket_target_row_num();
  assigner.max_buckets = options.dynamic_bucket_max_buckets();
  if (options_.overwrite) {
    assigner_ = std::make_unique<SimpleHashBucketAssigner>(assigner);
  } else {
    assigner_ = std::make_unique<HashBucketAssigner>(
        assigner, [this](const std::string& partition) { return LoadPartitionHashes(partition); });
  }
  index_file_uuid_ = NewUuidV4();
  return Status::OK();
}

Status FileStoreWrite::OpenPostponeTable() {
  // PostponeBucketFileStoreWrite: avro without statistics, and a file prefix per commit user
  // and writer, so the compaction can replay each writer's files in order.
  DynamicOptions options = table_->dynamic_options();
  if (RowTypeToAvroSchema(*table_->schema().LogicalRowType()).ok()) {
    options["file.format"] = "avro";
    options["metadata.stats-mode"] = "none";
  }
  std::random_device random;
  const int32_t writer_id = static_cast<int32_t>(random() & 0x7fffffff);
  const std::string user = options_.commit_user.empty() ? NewUuidV4() : options_.commit_user;
  options["data-file.prefix"] = table_->options().data_file_prefix() + "-u-" + user + "-s-" +
                                std::to_string(writer_id) + "-w-";
  SLUICE_ASSIGN_OR_RETURN(postpone_table_, FileStoreTable::Open(table_->io(), table_->path(),
                                                                table_->branch(), options));
  return Status::OK();
}

Result<std::string> FileStoreWrite::IndexFilePathOf(const IndexManifestEntry& entry) {
  if (entry.external_path) return StripFileScheme(*entry.external_path);
  return table_->path_factory().IndexFilePathOfSerialized(entry.partition, entry.bucket,
                                                          entry.file_name);
}

Result<std::string> FileStoreWrite::NewIndexFilePath(const std::string& partition, int32_t bucket) {
  IndexManifestEntry entry;
  entry.partition = partition;
  entry.bucket = bucket;
  entry.file_name = IndexFileName(index_file_uuid_, index_file_count_++);
  return IndexFilePathOf(entry);
}

Result<std::vector<BucketHashes>> FileStoreWrite::LoadPartitionHashes(
    const std::string& partition) {
  std::vector<BucketHashes> out;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table_->SelectSnapshot(TableVersion::Latest()));
  if (!latest || !latest->index_manifest) return out;
  // One read of the index manifest per snapshot, not per partition.
  if (hash_entries_snapshot_id_ != latest->id) {
    SLUICE_ASSIGN_OR_RETURN(
        std::vector<IndexManifestEntry> entries,
        ReadIndexManifest(*table_->io(),
                          ManifestFilePath(table_->path(), *latest->index_manifest)));
    hash_entries_.clear();
    for (IndexManifestEntry& e : entries) {
      if (e.kind == FileKind::kAdd && e.index_type == kHashIndexType) {
        hash_entries_.push_back(std::move(e));
      }
    }
    hash_entries_snapshot_id_ = latest->id;
  }
  for (const IndexManifestEntry& e : hash_entries_) {
    if (e.partition != partition) continue;
    SLUICE_ASSIGN_OR_RETURN(std::string path, IndexFilePathOf(e));
    SLUICE_ASSIGN_OR_RETURN(std::vector<int32_t> hashes, ReadHashIndexFile(*table_->io(), path));
    out.push_back(BucketHashes{e.bucket, std::move(hashes)});
  }
  return out;
}

Status FileStoreWrite::RefreshRestored() {
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table_->SelectSnapshot(TableVersion::Latest()));
  if (!latest || latest->id == restored_snapshot_id_) return Status::OK();
  restored_.clear();
  restored_snapshot_id_ = latest->id;
  // Every live file of every level (Java scanExistingFileMetas reads the manifests, not a
  // batch scan, which hides level 0 of first-row and deletion-vector tables).
  FileIO& io = *table_->io();
  FileEntryMerger merger;
  for (const std::string* list : {&latest->base_manifest_list, &latest->delta_manifest_list}) {
    if (list->empty()) continue;
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestFileMeta> manifests,
                            ReadManifestList(io, ManifestFilePath(table_->path(), *list)));
    for (const ManifestFileMeta& manifest : manifests) {
      SLUICE_ASSIGN_OR_RETURN(
          std::vector<ManifestEntry> entries,
          ReadManifestFile(io, ManifestFilePath(table_->path(), manifest.file_name)));
      SLUICE_RETURN_NOT_OK(merger.AddAll(std::move(entries)));
    }
  }
  for (ManifestEntry& entry : std::move(merger).Finish()) {
    if (entry.kind != FileKind::kAdd) continue;
    Restored& r = restored_[{entry.partition, entry.bucket}];
    r.total_buckets = entry.total_buckets;
    r.files.push_back(std::move(entry.file));
  }
  if (assigner_ && latest->index_manifest) {
    SLUICE_ASSIGN_OR_RETURN(
        std::vector<IndexManifestEntry> entries,
        ReadIndexManifest(io, ManifestFilePath(table_->path(), *latest->index_manifest)));
    for (IndexManifestEntry& e : entries) {
      if (e.kind != FileKind::kAdd || e.index_type != kHashIndexType) continue;
      Restored& r = restored_[{e.partition, e.bucket}];
      if (r.hash_index) {
        // Java IndexFileHandler.scanHashIndex refuses the same.
        return Status::Corruption(
            "index manifest " + *latest->index_manifest + " lists two hash index files of bucket " +
            std::to_string(e.bucket) + ": " + r.hash_index->file_name + " and " + e.file_name);
      }
      r.hash_index = std::move(e);
    }
  }
  return Status::OK();
}

Result<FileStoreWrite::BucketWriter*> FileStoreWrite::GetOrCreateWriter(
    const std::string& partition, int32_t bucket) {
  const WriterKey key{partition, bucket};
  auto found = writers_.find(key);
  if (found != writers_.end()) return &found->second;

  // Restored now, from the latest snapshot, not when the FileStoreWrite was opened: rows must
  // number after every commit that landed before the bucket's first write (Java restores a
  // bucket when its writer is created).
  SLUICE_RETURN_NOT_OK(RefreshRestored());
  std::vector<DataFileMeta> restored_files;
  int32_t total_buckets = extractor_.num_buckets();
  std::optional<IndexManifestEntry> restored_hash_index;
  if (auto r = restored_.find(key); r != restored_.end()) {
    restored_files = std::move(r->second.files);
    // An overwrite replaces the files, their bucket count with them (Java ignores the previous
    // files of an overwrite).
    if (!restored_files.empty() && !options_.overwrite) total_buckets = r->second.total_buckets;
    restored_hash_index = std::move(r->second.hash_index);
    restored_.erase(r);
  }
  if (extractor_.num_buckets() > 0 && total_buckets != extractor_.num_buckets()) {
    // Java AbstractFileStoreWrite.scanExistingFileMetas: rows hashed to N buckets cannot join
    // files laid out for M.
    return Status::InvalidArgument(
        "Try to write bucket " + std::to_string(bucket) + " of " + table_->path() +
        " with a new bucket num " + std::to_string(extractor_.num_buckets()) +
        ", but the previous bucket num is " + std::to_string(total_buckets) +
        ". Perform INSERT OVERWRITE (or sluice rescale) to rescale the current data layout first.");
  }
  int64_t max_sequence_number = -1;
  for (const DataFileMeta& f : restored_files) {
    max_sequence_number = std::max(max_sequence_number, f.max_sequence_number);
  }
  SLUICE_ASSIGN_OR_RETURN(std::string bucket_path,
                          table_->path_factory().BucketPathOfSerialized(partition, bucket));
  if (bucket == kPostponeBucket) {
    // Java ignores the postpone bucket's previous files: they are replayed, never merged.
    SLUICE_ASSIGN_OR_RETURN(
        std::shared_ptr<DataFileWriterFactory> files,
        DataFileWriterFactory::Make(table_->io(), postpone_table_->schema_ptr(),
                                    postpone_table_->options(), std::move(bucket_path)));
    BucketWriter bw;
    bw.total_buckets = kPostponeBucket;
    SLUICE_ASSIGN_OR_RETURN(bw.writer,
                            PostponeBucketWriter::Make(files, postpone_table_->options()));
    return &writers_.emplace(key, std::move(bw)).first->second;
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<DataFileWriterFactory> files,
                          DataFileWriterFactory::Make(table_->io(), table_->schema_ptr(),
                                                      table_->options(), std::move(bucket_path)));
  BucketWriter bw;
  bw.total_buckets = total_buckets;
  if (assigner_) {
    std::vector<int32_t> hashes;
    if (options_.overwrite) {
      restored_hash_index.reset();  // the overwrite replaces the bucket's index
    } else if (restored_hash_index) {
      restored_hash_index->partition = partition;
      restored_hash_index->bucket = bucket;
      SLUICE_ASSIGN_OR_RETURN(std::string path, IndexFilePathOf(*restored_hash_index));
      SLUICE_ASSIGN_OR_RETURN(hashes, ReadHashIndexFile(*table_->io(), path));
    }
    bw.hash_index =
        std::make_unique<DynamicBucketIndexMaintainer>(std::move(restored_hash_index), hashes);
  }
  if (table_->schema().is_primary_key_table()) {
    std::unique_ptr<CompactManager> compact_manager;
    if (options_.compact_manager_factory) {
      SLUICE_ASSIGN_OR_RETURN(compact_manager, options_.compact_manager_factory(
                                                   partition, bucket, restored_files, files));
    }
    ReportCompaction(compact_manager.get(), bucket);
    SLUICE_ASSIGN_OR_RETURN(
        bw.writer, MergeTreeWriter::Make(files, table_->options(), max_sequence_number,
                                         std::move(compact_manager), write_buffer_pool_.get()));
  } else {
    // Fixed-bucket append tables compact small files in the writer; bucket-unaware ones are
    // compacted by a dedicated job in Java, not by their writers.
    std::unique_ptr<CompactManager> compact_manager;
    if (options_.compact_manager_factory) {
      SLUICE_ASSIGN_OR_RETURN(compact_manager, options_.compact_manager_factory(
                                                   partition, bucket, restored_files, files));
    } else if (extractor_.num_buckets() > 0) {
      SLUICE_ASSIGN_OR_RETURN(
          compact_manager,
          MakeBucketedAppendCompactManager(table_, partition, bucket, restored_files, files));
    }
    ReportCompaction(compact_manager.get(), bucket);
    bw.writer =
        std::make_unique<AppendOnlyWriter>(files, max_sequence_number, std::move(compact_manager));
  }
  auto [it, inserted] = writers_.emplace(key, std::move(bw));
  return &it->second;
}

void FileStoreWrite::ReportCompaction(CompactManager* manager, int32_t bucket) {
  if (manager != nullptr && compaction_metrics_) {
    manager->SetMetricsReporter(compaction_metrics_->CreateReporter(bucket));
  }
}

RecordWriter* FileStoreWrite::WriterOf(const std::string& partition, int32_t bucket) const {
  auto found = writers_.find({partition, bucket});
  return found == writers_.end() ? nullptr : found->second.writer.get();
}

Status FileStoreWrite::RowKindsOf(const ColumnBatch& batch, const RowKind* kinds,
                                  std::vector<RowKind>* out) {
  const int64_t n = batch.num_rows();
  out->assign(static_cast<size_t>(n), RowKind::kInsert);
  if (rowkind_column_ >= 0) {
    const ColumnVector& column = *batch.column(rowkind_column_);
    for (int64_t i = 0; i < n; ++i) {
      std::optional<RowKind> kind =
          column.IsNull(i) ? std::nullopt : RowKindFromShortString(column.GetBytes(i));
      if (!kind) {
        return Status::InvalidArgument("row " + std::to_string(i) + ": rowkind.field column '" +
                                       batch.schema()->fields()[rowkind_column_].name +
                                       "' holds no row kind (+I, -U, +U, -D)");
      }
      (*out)[static_cast<size_t>(i)] = *kind;
    }
  } else if (kinds != nullptr) {
    out->assign(kinds, kinds + n);
  }
  return Status::OK();
}

Status FileStoreWrite::Write(const ColumnBatch& batch, const RowKind* kinds) {
  const TableSchema& schema = table_->schema();
  if (batch.num_columns() != static_cast<int>(schema.fields().size())) {
    return Status::InvalidArgument("table " + table_->path() + " has " +
                                   std::to_string(schema.fields().size()) + " columns, the batch " +
                                   std::to_string(batch.num_columns()));
  }
  const int64_t n = batch.num_rows();
  if (n == 0) return Status::OK();
  const bool has_kinds = kinds != nullptr || rowkind_column_ >= 0;
  if (has_kinds) SLUICE_RETURN_NOT_OK(RowKindsOf(batch, kinds, &kinds_scratch_));
  if (global_index_) return WriteCrossPartition(batch, has_kinds ? kinds_scratch_.data() : nullptr);
  const CoreOptions& options = table_->options();
  const bool ignore_delete = options.ignore_delete();
  const bool ignore_update_before = options.ignore_update_before();

  // Rows per writer, in input order, grouped by partition (keyed by the partition's row bytes,
  // so a row costs a comparison with the previous row's partition, not a string) and bucket.
  struct PartitionRoute {
    std::string partition;  // serialized BinaryRow
    int32_t partition_hash = 0;
    // Slot b - kPostponeBucket holds bucket b's rows (slot 0: the postpone bucket).
    std::vector<std::vector<int64_t>> rows_by_bucket;
  };
  std::vector<PartitionRoute> routes;
  std::map<std::string, size_t, std::less<>> route_of_row;
  const std::string* last_row = nullptr;
  size_t route = 0;  // index into routes
  if (extractor_.partition_arity() == 0) {
    routes.push_back(
        PartitionRoute{SerializeBinaryRow(EmptyBinaryRow(), 0), BinaryRowView().HashCode(), {}});
  }
  auto add_row = [&routes](size_t r, int32_t bucket, int64_t row) {
    std::vector<std::vector<int64_t>>& rows_by_bucket = routes[r].rows_by_bucket;
    const auto slot = static_cast<size_t>(bucket - kPostponeBucket);
    if (slot >= rows_by_bucket.size()) rows_by_bucket.resize(slot + 1);
    rows_by_bucket[slot].push_back(row);
  };
  // Dynamic buckets: the key hashes of the whole batch first, then each run of rows of one
  // partition assigned in one call, in input order (the order Java's assigner sees them).
  size_t run_route = 0;
  run_rows_.clear();
  run_hashes_.clear();
  auto assign_run = [&]() -> Status {
    if (run_rows_.empty()) return Status::OK();
    const PartitionRoute& r = routes[run_route];
    run_buckets_.resize(run_rows_.size());
    SLUICE_RETURN_NOT_OK(assigner_->AssignAll(r.partition, r.partition_hash, run_hashes_.data(),
                                              static_cast<int64_t>(run_hashes_.size()),
                                              run_buckets_.data()));
    for (size_t j = 0; j < run_rows_.size(); ++j) add_row(run_route, run_buckets_[j], run_rows_[j]);
    run_rows_.clear();
    run_hashes_.clear();
    return Status::OK();
  };
  if (assigner_) SLUICE_RETURN_NOT_OK(extractor_.KeyHashes(batch, &hashes_scratch_));
  for (int64_t i = 0; i < n; ++i) {
    if (has_kinds) {
      const RowKind kind = kinds_scratch_[static_cast<size_t>(i)];
      if ((kind == RowKind::kDelete && ignore_delete) ||
          (kind == RowKind::kUpdateBefore && (ignore_delete || ignore_update_before))) {
        continue;
      }
    }
    if (extractor_.partition_arity() != 0) {
      SLUICE_ASSIGN_OR_RETURN(std::string_view row, extractor_.Partition(batch, i));
      if (last_row == nullptr || *last_row != row) {
        auto found = route_of_row.find(row);
        if (found == route_of_row.end()) {
          PartitionRoute created;
          created.partition = SerializeBinaryRow(row, extractor_.partition_arity());
          if (assigner_) {
            SLUICE_ASSIGN_OR_RETURN(BinaryRowView view,
                                    BinaryRowView::Make(row, extractor_.partition_arity()));
            created.partition_hash = view.HashCode();
          }
          routes.push_back(std::move(created));
          found = route_of_row.emplace(std::string(row), routes.size() - 1).first;
        }
        last_row = &found->first;
        route = found->second;
      }
    }
    if (assigner_) {
      const int32_t key_hash = hashes_scratch_[static_cast<size_t>(i)];
      if (options_.dynamic_bucket_skip_others &&
          ComputeAssigner(routes[route].partition_hash, key_hash, assigner_channels_,
                          assigner_owners_) != options_.dynamic_bucket_assign_id) {
        continue;
      }
      if (route != run_route) {
        SLUICE_RETURN_NOT_OK(assign_run());
        run_route = route;
      }
      run_rows_.push_back(i);
      run_hashes_.push_back(key_hash);
      continue;
    }
    SLUICE_ASSIGN_OR_RETURN(const int32_t bucket, extractor_.Bucket(batch, i));
    add_row(route, bucket, i);
  }
  if (assigner_) SLUICE_RETURN_NOT_OK(assign_run());
  for (PartitionRoute& r : routes) {
    for (size_t slot = 0; slot < r.rows_by_bucket.size(); ++slot) {
      const std::vector<int64_t>& rows = r.rows_by_bucket[slot];
      if (rows.empty()) continue;
      const WriterKey key{r.partition, static_cast<int32_t>(slot) + kPostponeBucket};
      SLUICE_ASSIGN_OR_RETURN(BucketWriter * bw, GetOrCreateWriter(key.first, key.second));
      written_since_full_compaction_.insert(key);
      SLUICE_RETURN_NOT_OK(bw->writer->Write(batch, rows.data(), static_cast<int64_t>(rows.size()),
                                             has_kinds ? kinds_scratch_.data() : nullptr));
      if (bw->hash_index) {
        bw->hash_index->NotifyNewRecords(hashes_scratch_.data(), rows.data(),
                                         static_cast<int64_t>(rows.size()));
      }
    }
  }
  return Status::OK();
}

Status FileStoreWrite::WriteCrossPartition(const ColumnBatch& batch, const RowKind* kinds) {
  SLUICE_RETURN_NOT_OK(global_index_->Assign(batch, kinds, assigned_.get()));
  for (const AssignedRows::Route& route : assigned_->routes) {
    SLUICE_ASSIGN_OR_RETURN(BucketWriter * bw, GetOrCreateWriter(*route.partition, route.bucket));
    written_since_full_compaction_.insert({*route.partition, route.bucket});
    const std::vector<int64_t>& rows = route.rows;
    // Runs of input rows and of derived rows, in order: a key's retraction and its return to
    // the same bucket must keep their order.
    for (size_t begin = 0; begin < rows.size();) {
      const bool derived = rows[begin] < 0;
      size_t end = begin;
      while (end < rows.size() && (rows[end] < 0) == derived) ++end;
      const int64_t* run = rows.data() + begin;
      if (derived) {
        run_scratch_.clear();
        for (size_t i = begin; i < end; ++i) run_scratch_.push_back(~rows[i]);
        run = run_scratch_.data();
      }
      SLUICE_RETURN_NOT_OK(bw->writer->Write(derived ? assigned_->derived : batch, run,
                                             static_cast<int64_t>(end - begin),
                                             derived ? assigned_->derived_kinds.data() : kinds));
      begin = end;
    }
  }
  return Status::OK();
}

Status FileStoreWrite::Compact(const std::string& partition, int32_t bucket, bool full_compaction) {
  if (!table_->schema().is_primary_key_table() && extractor_.num_buckets() == -1) {
    // A partition already compacted for this commit has nothing new to offer until it lands.
    for (const CommitMessageImpl& pending : pending_compactions_) {
      if (pending.partition == partition) return Status::OK();
    }
    SLUICE_ASSIGN_OR_RETURN(std::vector<AppendCompactTask> tasks,
                            PlanAppendCompaction(*table_, partition, full_compaction));
    for (const AppendCompactTask& task : tasks) {
      SLUICE_ASSIGN_OR_RETURN(CommitMessageImpl message, RunAppendCompactTask(*table_, task));
      pending_compactions_.push_back(std::move(message));
    }
    return Status::OK();
  }
  if (extractor_.postpone_bucket()) {
    // The postpone bucket is rewritten into real buckets; those compact as they are written.
    for (const CommitMessageImpl& pending : pending_compactions_) {
      if (pending.partition == partition) return Status::OK();
    }
    SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                            CompactPostponeBucket(table_, partition));
    for (CommitMessageImpl& m : messages) pending_compactions_.push_back(std::move(m));
    return Status::OK();
  }
  SLUICE_ASSIGN_OR_RETURN(BucketWriter * bw, GetOrCreateWriter(partition, bucket));
  if (auto* merge_tree = dynamic_cast<MergeTreeWriter*>(bw->writer.get());
      merge_tree != nullptr && merge_tree->has_compact_manager()) {
    return merge_tree->Flush(/*wait_for_latest_compaction=*/true, full_compaction);
  }
  if (auto* append = dynamic_cast<AppendOnlyWriter*>(bw->writer.get());
      append != nullptr && append->has_compact_manager()) {
    return append->Compact(full_compaction);
  }
  return Status::NotSupported("compaction of bucket " + std::to_string(bucket) + " of " +
                              table_->path() + ": its writer does not compact");
}

Result<std::vector<CommitMessageImpl>> FileStoreWrite::PrepareCommit(int64_t commit_identifier,
                                                                     bool wait_compaction) {
  wait_compaction = wait_compaction || compaction_.PrepareCommitWaitCompaction();
  // full-compaction.delta-commits: every N-th commit fully compacts the buckets written since
  // the last full compaction (Java GlobalFullCompactionSinkWrite). Bucket-unaware append
  // tables are left to their dedicated compaction, as in Java.
  if (compaction_.full_compaction_delta_commits && !compaction_.write_only &&
      (table_->schema().is_primary_key_table() || extractor_.num_buckets() != -1) &&
      IsFullCompactionCommit(commit_identifier, *compaction_.full_compaction_delta_commits)) {
    for (const WriterKey& key : written_since_full_compaction_) {
      Status st = Compact(key.first, key.second, /*full_compaction=*/true);
      if (!st.ok() && st.code() != StatusCode::kNotSupported) return st;
    }
    written_since_full_compaction_.clear();
    wait_compaction = true;
  }
  std::vector<CommitMessageImpl> messages = std::move(pending_compactions_);
  pending_compactions_.clear();
  for (auto& [key, bw] : writers_) {
    SLUICE_ASSIGN_OR_RETURN(CommitIncrement increment, bw.writer->PrepareCommit(wait_compaction));
    CommitMessageImpl message;
    message.partition = key.first;
    message.bucket = key.second;
    message.total_buckets = bw.total_buckets;
    message.data = std::move(increment.data);
    message.compact = std::move(increment.compact);
    if (bw.hash_index) {
      SLUICE_ASSIGN_OR_RETURN(
          DynamicBucketIndexMaintainer::Increment index,
          bw.hash_index->PrepareCommit(
              [&](const std::vector<int32_t>& hashes) -> Result<IndexManifestEntry> {
                SLUICE_ASSIGN_OR_RETURN(std::string path, NewIndexFilePath(key.first, key.second));
                return WriteHashIndexFile(*table_->io(), path, hashes);
              }));
      for (auto& f : index.new_files) message.data.new_index_files.push_back(std::move(f));
      for (auto& f : index.deleted_files) message.data.deleted_index_files.push_back(std::move(f));
    }
    if (!message.empty()) messages.push_back(std::move(message));
  }
  SLUICE_RETURN_NOT_OK(SyncDirectoriesOf(messages));
  return messages;
}

Status FileStoreWrite::SyncDirectoriesOf(const std::vector<CommitMessageImpl>& messages) const {
  std::set<std::string> dirs;
  for (const CommitMessageImpl& m : messages) {
    SLUICE_ASSIGN_OR_RETURN(std::string bucket_path,
                            table_->path_factory().BucketPathOfSerialized(m.partition, m.bucket));
    for (const auto* files : {&m.data.new_files, &m.data.changelog_files, &m.compact.compact_after,
                              &m.compact.changelog_files}) {
      for (const DataFileMeta& f : *files) {
        dirs.insert(f.external_path ? ParentDir(*f.external_path) : bucket_path);
      }
    }
    for (const auto* files : {&m.data.new_index_files, &m.compact.new_index_files}) {
      for (const IndexManifestEntry& f : *files) {
        dirs.insert(f.external_path ? ParentDir(*f.external_path) : IndexDir(table_->path()));
      }
    }
  }
  for (const std::string& dir : dirs) {
    SLUICE_RETURN_NOT_OK_CTX(table_->io()->SyncDir(dir),
                             "making the new files of " + table_->path() + " durable");
  }
  return Status::OK();
}

Status FileStoreWrite::Close() {
  Status first;
  for (auto& [key, bw] : writers_) {
    Status st = bw.writer->Close();
    if (first.ok() && !st.ok()) first = st;
  }
  writers_.clear();
  global_index_.reset();  // removes the key index's directory
  // Compactions no PrepareCommit took: the files they wrote are garbage; a file one reused
  // (upgraded to another level) is still live.
  for (const CommitMessageImpl& message : pending_compactions_) {
    Result<std::string> bucket_path =
        table_->path_factory().BucketPathOfSerialized(message.partition, message.bucket);
    if (!bucket_path.ok()) {
      if (first.ok()) first = bucket_path.status();
      continue;
    }
    for (const DataFileMeta* file : message.compact.WrittenFiles()) {
      Status st = table_->io()->Delete(
          file->external_path ? *file->external_path : *bucket_path + "/" + file->file_name,
          /*recursive=*/false);
      if (first.ok() && !st.ok()) first = st;
    }
  }
  pending_compactions_.clear();
  return first;
}

}  // namespace sluice
