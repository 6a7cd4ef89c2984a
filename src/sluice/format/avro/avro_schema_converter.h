// Conversions between Paimon row types and Avro schemas.
//
// RowTypeToAvroSchema follows Java Paimon's AvroSchemaConverter.convertToSchema exactly (record
// names, namespace, nullable unions with "default": null, logical types, maps with non-string
// keys as arrays of key/value records), so Java reads what Sluice writes and the schema JSON is
// the same text Java writes.
//
// AvroSchemaToRowType derives a Paimon row type from any writer schema, for reading an Avro file
// without knowing its Paimon type (tests, tools, the fuzzer).
//
// Thread safety: stateless functions.
#pragma once

#include "sluice/data_type.h"
#include "sluice/format/avro/avro_schema.h"
#include "sluice/result.h"

namespace sluice {

// The top-level record name and namespace Java uses for every Paimon Avro file.
inline constexpr std::string_view kAvroRecordName = "record";
inline constexpr std::string_view kAvroRecordNamespace = "org.apache.paimon.avro.generated";

// REQUIRES: row_type is a ROW. NotSupported for types Avro files cannot hold (TIME(p > 3),
// TIMESTAMP(p > 6), VARIANT). The top-level record is written bare (not as a union) whatever the
// row type's nullability, as Java does for manifests and data files.
Result<AvroSchemaPtr> RowTypeToAvroSchema(const DataType& row_type);

// The Paimon type of an Avro schema: a record (optionally wrapped in ["null", record]) becomes a
// ROW whose fields get ids 0, 1, 2 ... in depth-first order. ["null", T] becomes nullable T, other
// types NOT NULL. Logical types map to DATE, TIME(3), TIMESTAMP(3|6|9), TIMESTAMP_LTZ(3|6|9),
// DECIMAL; an Avro map to MAP<STRING NOT NULL, V>; an array of {key, value} records with logical
// type "map" to MAP<K, V>; an enum to STRING; a fixed to BINARY(size).
Result<DataTypePtr> AvroSchemaToRowType(const AvroSchema& schema);

}  // namespace sluice
