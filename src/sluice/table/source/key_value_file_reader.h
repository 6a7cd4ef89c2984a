// KeyValueFileReader: the records of one primary-key data file (Java KeyValueFileReader) as
// column batches: the value fields a read needs, mapped from the schema the file was written
// under to the read schema by field id (FileEvolution), followed by the record's sequence
// number and row kind.
//
// File layout (format-spec 6.5): `_KEY_<pk>` columns (field id 1073741823 + key id),
// `_SEQUENCE_NUMBER` (BIGINT, id 2147483646), `_VALUE_KIND` (TINYINT, id 2147483645), then every
// table column. Keys are taken from the value columns, as Java 1.0+ readers do, so files written
// in thin mode (no `_KEY_*` columns) read the same; the `_KEY_*` columns are never decoded.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/format/file_format.h"
#include "sluice/io/key_value_layout.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/predicate/predicate.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/schema_evolution.h"
#include "sluice/types/time_zone.h"

namespace sluice {

class KeyValueFileReader {
 public:
  // `value_type`: a ROW of read-schema fields. Batches are of RecordType(value_type).
  struct Options {
    int64_t batch_size = 4096;
    // Sorted positions of deleted rows (a deletion vector), or null.
    const std::vector<int64_t>* deleted = nullptr;
    // Serves the casts that depend on the session time zone (null: UTC).
    std::shared_ptr<const TimeZone> session_zone;
    // A predicate over value_type whose row groups / stripes may be skipped when their
    // statistics rule it out (rows are not filtered); only fields the file holds with the read
    // type are used.
    PredicatePtr skip_filter;
  };

  static Result<std::unique_ptr<KeyValueFileReader>> Open(const FileStoreTable& table,
                                                          const TableSchema& read_schema,
                                                          const DataTypePtr& value_type,
                                                          const DataSplit& split, size_t file_index,
                                                          Options options);

  // `value_type` + `_SEQUENCE_NUMBER BIGINT NOT NULL` + `_VALUE_KIND TINYINT NOT NULL`.
  static DataTypePtr RecordType(const DataTypePtr& value_type);

  // Clears `batch` (of RecordType) and fills it with the next records; false at the end.
  // Errors name the file; a `_VALUE_KIND` outside 0..3 or a null sequence number is Corruption.
  Result<bool> Next(ColumnBatch* batch);

  const std::string& path() const { return path_; }
  int32_t level() const { return level_; }

 private:
  KeyValueFileReader(std::string path, int32_t level, std::unique_ptr<FormatReader> reader,
                     FileEvolution evolution, DataTypePtr file_read_type);

  std::string path_;
  int32_t level_;
  std::unique_ptr<FormatReader> reader_;
  FileEvolution evolution_;
  ColumnBatch file_batch_;
  bool direct_ = false;  // file columns == read columns: decode into the caller's batch
};

}  // namespace sluice
