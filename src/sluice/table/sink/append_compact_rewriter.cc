#include "sluice/table/sink/append_compact_rewriter.h"

#include "sluice/lsm/compaction_options.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/bucketed_append_compact_manager.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

Result<std::vector<DataFileMeta>> RewriteAppendFiles(
    const FileStoreTable& table, const std::string& partition, int32_t bucket,
    const std::shared_ptr<DataFileWriterFactory>& writers, const std::vector<DataFileMeta>& files) {
  if (files.empty()) return std::vector<DataFileMeta>{};
  const TableSchema& schema = writers->schema();
  auto schema_ptr = std::make_shared<const TableSchema>(schema);
  DataSplit split;
  split.partition = partition;
  if (!schema.partition_keys().empty()) {
    SLUICE_ASSIGN_OR_RETURN(split.partition_values,
                            DecodeSerializedBinaryRow(partition, *schema.LogicalPartitionType()));
  }
  split.bucket = bucket;
  split.bucket_path = writers->path_factory().bucket_path();
  split.data_files = files;
  for (const DataFileMeta& file : files) {
    split.data_file_paths.push_back(file.external_path ? *file.external_path
                                                       : split.bucket_path + "/" + file.file_name);
  }
  split.raw_convertible = true;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SplitReader> reader,
                          OpenSplitReader(table, schema_ptr, std::move(split), SplitReadOptions{}));
  std::unique_ptr<RollingDataFileWriter> writer =
      writers->NewAppendWriter(files.front().min_sequence_number);
  ColumnBatch batch(reader->output_type());
  while (true) {
    Result<bool> more = reader->Next(&batch);
    if (!more.ok()) {
      writer->Abort();
      return more.status();
    }
    if (!*more) break;
    Status st = writer->Write(batch);
    if (!st.ok()) {
      writer->Abort();
      return st;
    }
  }
  Result<std::vector<DataFileMeta>> written = writer->Close();
  if (!written.ok()) {
    writer->Abort();
    return written.status();
  }
  std::vector<DataFileMeta> result = std::move(written).value();
  for (DataFileMeta& file : result) file.file_source = FileSource::kCompact;
  return result;
}

Result<std::unique_ptr<CompactManager>> MakeBucketedAppendCompactManager(
    std::shared_ptr<const FileStoreTable> table, const std::string& partition, int32_t bucket,
    const std::vector<DataFileMeta>& restored_files, std::shared_ptr<DataFileWriterFactory> writers,
    bool background) {
  const CompactionOptions compaction =
      CompactionOptions::From(table->options(), /*has_primary_key=*/false);
  if (compaction.write_only) return std::unique_ptr<CompactManager>();
  BucketedAppendCompactManager::Options options;
  options.min_file_num = compaction.min_file_num;
  options.target_file_size = compaction.target_file_size;
  options.compaction_file_size = compaction.compaction_file_size();
  options.background = background;
  auto rewrite = [table, partition, bucket, writers](
                     const std::vector<DataFileMeta>& files) -> Result<std::vector<DataFileMeta>> {
    return RewriteAppendFiles(*table, partition, bucket, writers, files);
  };
  return std::unique_ptr<CompactManager>(
      std::make_unique<BucketedAppendCompactManager>(restored_files, std::move(rewrite), options));
}

}  // namespace sluice
