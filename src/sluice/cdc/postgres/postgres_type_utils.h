// PostgreSQL column types as Paimon types (Java PostgresTypeUtils, Paimon 1.4.2), and a column
// value's text (a snapshot's SELECT, pgoutput's text: the type's output function, in a UTC /
// ISO session) as the text CastFromCdcValueString reads into that type.
//
// The mapping, by the type's name as pg_type has it (udt_name: int4, _int4, varchar, bpchar,
// timestamptz, ...), with the precision and scale of the type modifier:
//   bool -> BOOLEAN; bit / varbit(1) -> BOOLEAN, (n) -> BINARY((n + 7) / 8); bytea -> BYTES;
//   int2 / smallserial -> SMALLINT; int4 / serial -> INT; int8 / bigserial -> BIGINT;
//   float4 -> FLOAT; float8 -> DOUBLE; numeric(p, s) -> DECIMAL(p, s), without a precision
//   DECIMAL(38, 18); bpchar(n) -> CHAR(n); varchar(n) -> VARCHAR(n); text, json -> STRING;
//   timestamp(p) -> TIMESTAMP(p); timestamptz(p) -> TIMESTAMP_LTZ(p); time(p) -> TIME(p);
//   date -> DATE; the array of each (_int4, ...) -> ARRAY of the element's type.
//   Beyond Java, which refuses them: jsonb, uuid and user enums -> STRING.
// With to-string every type is STRING.
//
// Value texts: bytea's hex form ("\x0a0b") becomes its bytes, bit strings ("101") "1"/"0" or
// their bytes in base64, timestamptz loses its "+00" (the session is UTC, and TIMESTAMP_LTZ
// reads a UTC wall clock), arrays ("{1,NULL,"a b"}") become JSON arrays.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sluice/cdc/type_mapping.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

// A column's type: pg_type's typname ("_int4" for arrays), whether it is an enum (typtype
// 'e'), and its type modifier (atttypmod; -1 for none).
struct PostgresType {
  std::string name;
  bool is_enum = false;
  int32_t modifier = -1;
};

// NotSupported naming the type for one Java has no mapping for (and Sluice none beyond).
Result<DataTypePtr> PostgresTypeToDataType(const PostgresType& type,
                                           const TypeMapping& type_mapping);

// `text` of a column of `type` (mapped to `data_type`) as its record value text.
// Corruption naming the value for text that is not what the type prints.
Result<std::string> PostgresValueText(const PostgresType& type, const DataType& data_type,
                                      std::string text);

}  // namespace sluice
