// Schema evolution on read: maps the fields of a data file, written under schema S_file, to a
// read schema S_read by Paimon field id (Java SchemaEvolutionUtil), and turns batches read from
// the file into batches of S_read (reordered fields, null columns for fields the file lacks,
// casts for changed types, partition columns from the split's partition values).
//
// The file is opened with a read type built from S_file's names and types (with field ids), so
// a column renamed since the file was written is still found in files without field ids.
//
// Thread safety: FileEvolution is immutable after Make; Apply may run concurrently.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"
#include "sluice/value.h"

namespace sluice {

class FileEvolution {
 public:
  // `read_type` is a ROW of S_read fields (with their ids); `partition_keys` are the table's
  // partition columns and `partition_values` the split's values for them (same order). Fails,
  // naming the column and both types, if a changed type cannot be cast. Casts that depend on
  // the session time zone (column_cast.h) use `session_zone`; null is UTC.
  static Result<FileEvolution> Make(const TableSchema& file_schema, const DataTypePtr& read_type,
                                    const std::vector<std::string>& partition_keys,
                                    const ValueList& partition_values,
                                    std::shared_ptr<const TimeZone> session_zone = nullptr);

  // The type to open the data file with: the S_file fields the read needs, by S_file name.
  const DataTypePtr& file_read_type() const { return file_read_type_; }
  const DataTypePtr& read_type() const { return read_type_; }

  // Appends the rows of `file_batch` (of file_read_type()) to `out` (of read_type()).
  Status Apply(const ColumnBatch& file_batch, ColumnBatch* out) const;
  // As Apply, but when `out` holds no rows the columns that need no cast are moved rather
  // than copied; `file_batch` is then left with rows of no use (clear it before reuse).
  Status Move(ColumnBatch* file_batch, ColumnBatch* out) const;

 private:
  enum class SourceKind : unsigned char { kFile, kConstant, kNull };
  struct Source {
    SourceKind kind = SourceKind::kNull;
    int file_index = -1;                     // kFile: column of file_read_type()
    bool needs_cast = false;                 // kFile
    std::shared_ptr<ColumnVector> constant;  // kConstant: one row of the read type
  };

  DataTypePtr file_read_type_;
  DataTypePtr read_type_;
  // Apply, moving columns out of `movable` (null: copying) when they need no cast.
  Status Fill(const ColumnBatch& file_batch, ColumnBatch* movable, ColumnBatch* out) const;

  std::vector<Source> sources_;  // one per read field
  std::shared_ptr<const TimeZone> session_zone_;
};

}  // namespace sluice
