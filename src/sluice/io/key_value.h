// KeyValue: one record of a primary-key table's LSM tree (Java org.apache.paimon.KeyValue): the
// primary key, the sequence number the writer gave it, its RowKind and the full value row.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>

#include "sluice/row_kind.h"
#include "sluice/value.h"

namespace sluice {

struct KeyValue {
  // The trimmed primary key fields, in key order (the `_KEY_*` columns of a data file).
  ValueList key;
  int64_t sequence_number = 0;
  RowKind kind = RowKind::kInsert;
  // Every field of the table row, in schema order.
  ValueList value;
  // The LSM level of the file the record was read from (first-row tells level-0 records apart).
  int32_t level = 0;
};

}  // namespace sluice
