// RollingDataFileWriter: writes the rows of one partition and bucket into data files of
// `file.format`, starting a new file once the current one reaches `target-file-size` (Java
// RollingFileWriterImpl, checked every 1000 rows as Java does), and describes each file with
// the DataFileMeta Java would record (RowDataFileWriter for append files,
// KeyValueDataFileWriter for primary-key files).
//
// Two layouts:
//   append     the table row; each row gets the next sequence number; empty keys and key
//              stats, delete_row_count 0.
//   key-value  `_KEY_<k>`... (trimmed primary key, NOT NULL, field id 1073741823 + id),
//              `_SEQUENCE_NUMBER`, `_VALUE_KIND`, then the table row (KeyValueFileType).
//              Rows must come sorted by key; min/max key are the first and last keys, key
//              stats cover the `_KEY_` columns, value stats the table columns, delete_row_count
//              counts -U and -D rows.
//
// Changelog files (Java KeyValueFileWriterFactory.createRollingChangelogFileWriter) are
// key-value files named `changelog-<uuid>-<n>` (`changelog-file.prefix`), file source APPEND,
// at the level of the write or compaction that produced them; their rows need not be sorted
// by key (min/max key are still the first and last row's).
//
// Statistics: the FormatWriter's column statistics with each column's stats mode applied
// (StatsModesOfColumns), converted as SimpleStatsConverter does (dense per
// `metadata.stats-dense-store`).
//
// Thread safety: DataFileWriterFactory is thread-safe; a RollingDataFileWriter is not.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/format/file_format.h"
#include "sluice/fs/file_io.h"
#include "sluice/io/data_file_path_factory.h"
#include "sluice/io/key_value.h"
#include "sluice/io/key_value_layout.h"
#include "sluice/io/stats_mode.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

namespace sluice {

// The row type of primary-key data files (KeyValue.schema): `_KEY_*` columns of the trimmed
// primary key, `_SEQUENCE_NUMBER BIGINT NOT NULL`, `_VALUE_KIND TINYINT NOT NULL`, the table row.
DataTypePtr KeyValueFileType(const TableSchema& schema);

enum class DataFileLayout : unsigned char { kAppend, kKeyValue };

class RollingDataFileWriter;

// What the writers of one partition and bucket share: where files go, their format, options,
// and the stats modes of both layouts.
class DataFileWriterFactory : public std::enable_shared_from_this<DataFileWriterFactory> {
 public:
  static Result<std::shared_ptr<DataFileWriterFactory>> Make(
      std::shared_ptr<FileIO> io, std::shared_ptr<const TableSchema> schema,
      const CoreOptions& options, std::string bucket_path);

  // An append-layout writer whose first row gets `first_sequence_number`.
  std::unique_ptr<RollingDataFileWriter> NewAppendWriter(int64_t first_sequence_number);
  // A key-value-layout writer of files at `level`.
  std::unique_ptr<RollingDataFileWriter> NewKeyValueWriter(int32_t level, FileSource source);
  // A key-value-layout writer of changelog files at `level`.
  std::unique_ptr<RollingDataFileWriter> NewChangelogWriter(int32_t level);

  const std::shared_ptr<FileIO>& io() const { return io_; }
  const TableSchema& schema() const { return *schema_; }
  const DataTypePtr& row_type() const { return row_type_; }
  const DataTypePtr& key_value_type() const { return key_value_type_; }
  const DataTypePtr& key_type() const { return key_type_; }
  DataFilePathFactory& path_factory() { return path_factory_; }
  int64_t target_file_size() const { return target_file_size_; }
  // Deletes `files` from this bucket's folder, best effort: files no snapshot references
  // (uncommitted or replaced output), which orphan-file cleanup removes when this fails.
  void DeleteUnreferenced(const std::vector<DataFileMeta>& files) const;

 private:
  friend class RollingDataFileWriter;
  DataFileWriterFactory(std::shared_ptr<FileIO> io, std::shared_ptr<const TableSchema> schema,
                        const CoreOptions& options, std::string bucket_path)
      : io_(std::move(io)),
        schema_(std::move(schema)),
        path_factory_(std::move(bucket_path), options) {}

  std::shared_ptr<FileIO> io_;
  std::shared_ptr<const TableSchema> schema_;
  DataFilePathFactory path_factory_;
  std::shared_ptr<const FileFormat> format_;
  WriterOptions writer_options_;
  int64_t target_file_size_ = 0;
  bool dense_stats_ = true;
  DataTypePtr row_type_;
  DataTypePtr key_value_type_;
  DataTypePtr key_type_;  // trimmed primary key
  std::vector<StatsMode> append_modes_;
  std::vector<StatsMode> key_value_modes_;
  // Key-value files at the levels `metadata.stats-mode.per.level` names.
  std::map<int32_t, std::vector<StatsMode>> key_value_modes_per_level_;
};

class RollingDataFileWriter {
 public:
  ~RollingDataFileWriter();

  // Appends the rows of `batch`, whose columns are those of the layout's type.
  Status Write(const ColumnBatch& batch);
  // Appends one record (key-value layout), buffered into batches.
  Status Write(const KeyValue& kv);

  // Finishes the current file; returns the metadata of every file written, in order.
  Result<std::vector<DataFileMeta>> Close();
  // Deletes every file written so far (after a failure).
  void Abort();

  // Append layout: the sequence number the next row gets.
  int64_t next_sequence_number() const { return next_sequence_number_; }
  int64_t record_count() const { return record_count_; }

 private:
  friend class DataFileWriterFactory;
  RollingDataFileWriter(std::shared_ptr<DataFileWriterFactory> factory, DataFileLayout layout,
                        int32_t level, FileSource source, int64_t first_sequence_number,
                        bool changelog = false);

  const DataTypePtr& write_type() const;
  Status WriteSlice(const ColumnBatch& batch, int64_t begin, int64_t end);
  Status WriteChunk(const ColumnBatch& batch);
  Status OpenFile();
  Status CloseFile();
  Status FlushPending();

  std::shared_ptr<DataFileWriterFactory> factory_;
  DataFileLayout layout_;
  int32_t level_;
  FileSource source_;
  bool changelog_;
  int64_t next_sequence_number_;
  int64_t record_count_ = 0;
  const std::vector<StatsMode>* modes_;

  // The open file.
  std::unique_ptr<FormatWriter> writer_;
  std::string file_name_;
  int64_t file_rows_ = 0;
  int64_t min_seq_ = 0;
  int64_t max_seq_ = 0;
  int64_t delete_rows_ = 0;
  std::string min_key_;  // serialized
  std::string max_key_;

  std::unique_ptr<ColumnBatch> pending_;  // Write(KeyValue) rows
  std::unique_ptr<ColumnBatch> chunk_;    // rows sliced off for a size check
  std::vector<std::string> written_paths_;
  std::vector<DataFileMeta> results_;
};

}  // namespace sluice
