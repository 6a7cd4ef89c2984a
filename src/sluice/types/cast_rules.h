// Which type changes Paimon allows, as one rule table used by ALTER TABLE (meta/schema_generation)
// and by the reader's casts (table/source/column_cast): Java's two sources of truth, reproduced
// exactly.
//
//   SupportsCast        Java DataTypeCasts.supportsCast: the implicit (widening) and explicit
//                       (SQL CAST) casting rules by target root.
//   ResolveCastRule     Java CastExecutors.resolve: the cast rule that converts values, found
//                       the way Java looks it up (target type, then target root, then target
//                       families; input root, then input families; a later rule registered for
//                       the same keys replaces an earlier one), and nullopt where Java finds no
//                       rule or the rule's create() returns null (e.g. TINYINT -> TIMESTAMP,
//                       whose rule only converts INT and BIGINT).
//   SupportsSchemaTypeChange
//                       SchemaManager's ALTER COLUMN TYPE check: both of the above.
//
// Java's quirks are kept, because a table is only portable if both sides agree: DATE, TIME and
// the timestamps convert to STRING only (nullable VARCHAR(2147483647)), not to CHAR(n),
// VARCHAR(n) or STRING NOT NULL; TIMESTAMP converts to INT and BIGINT but to no other number;
// TIME(p) does not change precision.
//
// Thread safety: pure functions over immutable tables.
#pragma once

#include <optional>
#include <string_view>

#include "sluice/data_type.h"

namespace sluice {

// Java's cast rules (org.apache.paimon.casting.*CastRule), one per kind of conversion.
enum class CastRule : unsigned char {
  kDecimalToDecimal,
  kNumericPrimitiveToDecimal,
  kDecimalToNumericPrimitive,
  kNumericPrimitive,
  kNumericPrimitiveToTimestamp,
  kBooleanToNumeric,
  kNumericToBoolean,
  kNumericToString,
  kBooleanToString,
  kTimestampToString,
  kTimeToString,
  kDateToString,
  kStringToString,
  kArrayToString,
  kMapToString,
  kRowToString,
  kStringToBoolean,
  kStringToDecimal,
  kStringToNumericPrimitive,
  kStringToDate,
  kStringToTime,
  kStringToTimestamp,
  kStringToBinary,
  kStringToArray,
  kStringToMap,
  kStringToRow,
  kTimestampToTimestamp,
  kTimestampToDate,
  kTimestampToTime,
  kDateToTimestamp,
  kTimeToTimestamp,
  kTimestampToNumericPrimitive,
  kBinaryToBinary,
  kBinaryToString,
};

// Java's class name of the rule ("NumericToStringCastRule"), for messages and tests.
std::string_view CastRuleName(CastRule rule);

// Java DataTypeCasts.supportsCast(from, to, allow_explicit).
bool SupportsCast(const DataType& from, const DataType& to, bool allow_explicit);

// Java CastExecutors.resolve(from, to) != null: the rule converting values of `from` to `to`.
std::optional<CastRule> ResolveCastRule(const DataType& from, const DataType& to);

// Java SchemaManager's check of ALTER COLUMN ... TYPE: SupportsCast && ResolveCastRule.
bool SupportsSchemaTypeChange(const DataType& from, const DataType& to, bool allow_explicit);

}  // namespace sluice
