// The change records of the ingestion runtime (Java org.apache.paimon.flink.sink.cdc):
//
//   CdcRecord               one row change: its kind and its values by column name, as text
//                           (Java CdcRecord's Map<String, String>); a null value is SQL NULL.
//   CdcSchema               the columns a record carries with the types its source gave them
//                           (typed formats) or STRING (untyped ones), and the primary keys the
//                           record names (canal's pkNames, maxwell's primary_key_columns, ...).
//   RichCdcMultiplexRecord  a record with the database and table it belongs to: what a format's
//                           parser produces and the sync runtime routes to a table.
//
// Values stay text until the runtime writes them: it converts each with the table's type at
// that moment (cdc_value_cast.h), so a column widened by schema evolution reads the same text.
//
// Thread safety: value types.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/row_kind.h"

namespace sluice {

struct CdcRecord {
  RowKind kind = RowKind::kInsert;
  // Column name -> value text, in the order the source gave them; nullopt is SQL NULL.
  std::vector<std::pair<std::string, std::optional<std::string>>> fields;

  // The value of `name`: nullptr when the record does not carry the column, else the value
  // (nullopt for NULL).
  const std::optional<std::string>* Find(std::string_view name) const {
    for (const auto& [field, value] : fields) {
      if (field == name) return &value;
    }
    return nullptr;
  }
};

struct CdcSchema {
  // The record's columns in source order (ids unset), each with the type the source gives.
  std::vector<DataField> fields;
  std::vector<std::string> primary_keys;
  std::optional<std::string> comment;
};

struct RichCdcMultiplexRecord {
  std::string database;  // empty when the format does not name one (plain json)
  std::string table;     // empty when the format does not name one
  // Never null. Records of one shape may share one schema object (the fast parsers hand out the
  // same one again), so that a sink checks a schema once per object, not once per record.
  std::shared_ptr<const CdcSchema> schema;
  CdcRecord record;
};

}  // namespace sluice
