// DebeziumSchema: the column types of a Debezium message with the schema envelope
// (`{"schema": {...}, "payload": {...}}`, Kafka Connect's JsonConverter with schemas.enable),
// and what they make of the values (Java DebeziumSchemaUtils).
//
// Each column of the row struct (`after`, else `before`) has a Connect type ("int32", "bytes",
// ...), maybe a logical name ("io.debezium.time.Date", "org.apache.kafka.connect.data.Decimal")
// and parameters. Types and value texts, Java's unless marked:
//   int8/16/32/64 -> TINYINT/SMALLINT/INT/BIGINT; float32 / float -> FLOAT, float64 / double ->
//     DOUBLE (Java: FLOAT for float64); boolean -> BOOLEAN; string, struct, array, map -> STRING
//     (structs, arrays and maps as JSON text).
//   bytes -> BYTES, the decoded bytes.
//   Decimal -> DECIMAL(connect.decimal.precision, scale); DECIMAL(20, 0) without a precision
//     (BIGINT UNSIGNED) or DECIMAL(38, scale) when the scale is not 0 (beyond Java); STRING
//     beyond precision 38. The value as a number (decimal.format=NUMERIC) or, beyond Java,
//     base64 of the unscaled two's-complement bytes (the JsonConverter's default).
//   io.debezium.data.VariableScaleDecimal -> STRING, {"scale", "value"} as decimal text (beyond
//     Java).
//   io.debezium.data.Bits -> BINARY((length + 7) / 8), base64 of the big-endian bytes (the CDC
//     cast decodes a BINARY text as base64); with to-string the bits as '0'/'1' text.
//   io.debezium.time.Date, connect Date -> DATE, "2024-01-02".
//   io.debezium.time.Timestamp, connect Timestamp (epoch millis) -> TIMESTAMP(3); MicroTimestamp
//     -> TIMESTAMP(6); NanoTimestamp -> TIMESTAMP(9) (beyond Java): "2024-01-02 03:04:05.123".
//   io.debezium.time.ZonedTimestamp (ISO-8601 text with offset) -> TIMESTAMP(6), in UTC.
//   io.debezium.time.MicroTime -> TIME; io.debezium.time.Time, connect Time (millis) -> TIME(3)
//     and NanoTime -> TIME(9) (beyond Java): "03:04:05.123456", wrapped into one day as Java.
//   With to-string every column is STRING (Java keeps the types), values as above.
//
// Thread safety: a value type.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sluice/base/json_fwd.h"
#include "sluice/cdc/type_mapping.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

class DebeziumSchema {
 public:
  // One column of the row struct.
  struct Field {
    std::string type;          // Connect type: "int32", "bytes", "struct", ...
    std::string logical_name;  // "name": "io.debezium.time.Date"; empty when none
    std::vector<std::pair<std::string, std::string>> parameters;

    const std::string* Parameter(std::string_view key) const;
  };

  // Reads the `schema` member of a message; Corruption naming what is malformed.
  static Result<DebeziumSchema> Parse(const Json& schema);

  // The column `name`, or nullptr when the schema does not have it.
  const Field* Find(std::string_view name) const;

  // The Paimon type of `field`; Corruption for a bad parameter.
  static Result<DataTypePtr> ToDataType(const Field& field, const TypeMapping& type_mapping);

  // The record text of `value` (not null) in a column of `field`; Corruption naming `path` when
  // the value does not fit the type.
  static Result<std::string> ToText(const Field& field, const Json& value, std::string_view path,
                                    const TypeMapping& type_mapping);

 private:
  std::unordered_map<std::string, Field> fields_;
};

}  // namespace sluice
