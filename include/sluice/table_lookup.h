// TableLookup: point lookups by primary key on a primary-key table (Java LocalTableQuery, what a
// lookup join returns): the latest merged row of each key at one snapshot.
//
//   SLUICE_ASSIGN_OR_RETURN(TableLookup lookup, TableLookup::Make(table));
//   SLUICE_ASSIGN_OR_RETURN(std::optional<ValueList> row, lookup.Lookup({Value::Int64(42)}));
//
// Keys are the primary key's values in primary-key order (partition fields included). Lookup
// files are built on local disk from the data files a key needs, once, and reused by later
// lookups (bounded by the table's `lookup.cache-*` options). Tables that need lookup
// (deletion vectors, `changelog-producer = lookup`, first-row) answer from their compacted
// levels, as Java does; others fold every version of the key with the merge engine.
//
// Thread safety: not thread-safe; one TableLookup per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/table.h"
#include "sluice/value.h"

namespace sluice {

class TableLookup {
 public:
  // A lookup of `table` at its latest snapshot (an empty table finds nothing), or at snapshot
  // `snapshot_id` (NotFound naming it when it does not exist). NotSupported for a table without
  // a primary key.
  static Result<TableLookup> Make(const Table& table,
                                  std::optional<int64_t> snapshot_id = std::nullopt);

  TableLookup(TableLookup&&) noexcept;
  TableLookup& operator=(TableLookup&&) noexcept;
  ~TableLookup();

  // ROW of the primary key fields, in the order Lookup takes their values.
  const DataTypePtr& key_type() const;
  // ROW of the rows found: the columns of the snapshot's schema.
  const DataTypePtr& row_type() const;

  // The row of `key`, or nullopt when the key is absent or deleted. InvalidArgument when the
  // key does not have one non-null value per primary key field.
  Result<std::optional<ValueList>> Lookup(const ValueList& key);
  // The rows of `keys` appended to `out` (a batch of row_type()), in the order of the keys;
  // absent keys append nothing.
  Status Lookup(const std::vector<ValueList>& keys, ColumnBatch* out);

 private:
  struct Rep;
  explicit TableLookup(std::unique_ptr<Rep> rep);

  std::unique_ptr<Rep> rep_;
};

}  // namespace sluice
