// The JSON form of Paimon types and fields, as in schema files (Java DataTypeJsonParser,
// DataType.serializeJson, DataField.serializeJson):
//
//   atomic type   "INT NOT NULL", "DECIMAL(10, 2)", "TIMESTAMP(3) WITH LOCAL TIME ZONE", ...
//   nested type   {"type" : "ARRAY", "element" : <type>}, {"type" : "MAP NOT NULL", "key" : ...,
//                 "value" : ...}, {"type" : "MULTISET", ...}, {"type" : "ROW", "fields" : [...]},
//                 {"type" : "VECTOR", "element" : <type>, "length" : n}
//   field         {"id" : 0, "name" : "f0", "type" : <type>, "description" : ..,
//                  "defaultValue" : ..}
//
// Parsing accepts everything Java accepts: case-insensitive keywords, free whitespace, the
// aliases INTEGER, NUMERIC, DEC, DOUBLE PRECISION, TIMESTAMP_LTZ, `... WITHOUT TIME ZONE`, the
// defaults of omitted parameters, an explicit `NULL`, and the suffix forms `<type> ARRAY` and
// `<type> MULTISET`. Writing produces what Java writes (atomic types as their SQL string).
//
// Thread safety: free functions; safe to call concurrently.
#pragma once

#include <string>
#include <string_view>

#include "sluice/base/json_fwd.h"
#include "sluice/base/json_writer.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

// ParseAtomicDataType (the type-string grammar) is declared in the public data_type.h.

// Parses the JSON form of a type (a string or an object). Nested ROW fields without "id" get
// ids in reading order from 0; mixing fields with and without ids is an error. Errors are
// Corruption statuses naming `field` (e.g. "fields[3].type").
Result<DataTypePtr> DataTypeFromJson(const Json& json, std::string_view field = "type");

// Parses one field object of a schema's "fields" array; every field, nested ones included, must
// carry an "id". Errors name `field` (e.g. "fields[3]").
Result<DataField> DataFieldFromJson(const Json& json, std::string_view field);

// Writes `type` / `field` as Java does.
void WriteDataTypeJson(const DataType& type, JsonWriter* writer);
void WriteDataFieldJson(const DataField& field, JsonWriter* writer);

// The pretty-printed JSON of a type (a quoted string for atomic types).
std::string DataTypeToJson(const DataType& type);

}  // namespace sluice
