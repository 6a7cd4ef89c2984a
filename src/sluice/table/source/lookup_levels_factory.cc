#include "sluice/table/source/lookup_levels_factory.h"

#include "sluice/row/binary_row.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/source/sorted_run_file_reader.h"

namespace sluice {
namespace {

// Rows per batch read from a data file while its lookup file is built.
constexpr int64_t kBatchSize = 4096;

// The records of one data file; owns the one-file split the file reader refers to.
class DataFileRecordReader final : public SortedRunReader {
 public:
  DataFileRecordReader(std::shared_ptr<const FileStoreTable> table,
                       std::shared_ptr<const TableSchema> schema, DataSplit split)
      : table_(std::move(table)),
        schema_(std::move(schema)),
        split_(std::move(split)),
        reader_(*table_, *schema_, schema_->LogicalRowType(), split_, {0}, Options()) {}

  Result<bool> Next(ColumnBatch* batch) override { return reader_.Next(batch); }
  int32_t level() const override { return reader_.level(); }

 private:
  static KeyValueFileReader::Options Options() {
    KeyValueFileReader::Options options;
    options.batch_size = kBatchSize;
    return options;
  }

  std::shared_ptr<const FileStoreTable> table_;
  std::shared_ptr<const TableSchema> schema_;
  DataSplit split_;
  SortedRunFileReader reader_;
};

}  // namespace

Result<LookupFileReaderFactory> MakeLookupFileReaderFactory(
    std::shared_ptr<const FileStoreTable> table, std::shared_ptr<const TableSchema> read_schema,
    std::string partition, std::string bucket_path) {
  DataSplit base;
  base.partition = std::move(partition);
  if (!read_schema->partition_keys().empty()) {
    SLUICE_ASSIGN_OR_RETURN(
        base.partition_values,
        DecodeSerializedBinaryRow(base.partition, *read_schema->LogicalPartitionType()));
  }
  base.bucket_path = std::move(bucket_path);
  return LookupFileReaderFactory(
      [table = std::move(table), read_schema = std::move(read_schema), base = std::move(base)](
          const DataFileMeta& file) -> Result<std::unique_ptr<SortedRunReader>> {
        DataSplit split = base;
        split.data_files.push_back(file);
        split.data_file_paths.push_back(
            file.external_path ? *file.external_path : split.bucket_path + "/" + file.file_name);
        return std::unique_ptr<SortedRunReader>(
            std::make_unique<DataFileRecordReader>(table, read_schema, std::move(split)));
      });
}

Result<std::unique_ptr<LookupLevels>> MakeLookupLevels(
    std::shared_ptr<const FileStoreTable> table, std::shared_ptr<const TableSchema> read_schema,
    std::string partition, std::string bucket_path, std::shared_ptr<LookupFileCache> cache,
    LookupLevels::Options options) {
  const TableSchema& schema = *read_schema;
  if (schema.trimmed_primary_keys().empty()) {
    return Status::InvalidArgument("table " + table->path() +
                                   ": lookups need a primary key, the table has none");
  }
  SLUICE_ASSIGN_OR_RETURN(CoreOptions core,
                          CoreOptions::FromSchema(schema, table->dynamic_options()));
  SLUICE_ASSIGN_OR_RETURN(KeyValueMergeOrder key_order, KeyValueMergeOrder::Make(schema, core));
  std::vector<int> key_columns;
  for (const std::string& name : schema.trimmed_primary_keys()) {
    key_columns.push_back(schema.FieldIndex(name));
  }
  SLUICE_ASSIGN_OR_RETURN(LookupFileReaderFactory factory,
                          MakeLookupFileReaderFactory(table, read_schema, std::move(partition),
                                                      std::move(bucket_path)));
  return LookupLevels::Make(schema.LogicalTrimmedPrimaryKeysType(),
                            KeyValueFileReader::RecordType(schema.LogicalRowType()),
                            std::move(key_columns), std::move(key_order), std::move(factory),
                            std::move(cache), options);
}

}  // namespace sluice
