// ColumnType: the column types the interop scenarios put in their tables, with their SQL text
// (for `sluice create-table` / `alter-table`), random values in the JSON encoding of
// `sluice read --format jsonl` (value_json.h), and the normal form two such JSON values are
// compared in (numbers of FLOAT / DOUBLE columns as the float / double they denote, so that
// "1" and "1.0" are one value).
//
// Thread safety: value types and pure functions.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace sluice::test {

enum class ColumnKind {
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kFloat,
  kDouble,
  kDecimal,
  kString,
  kBytes,
  kDate,
  kTime,
  kTimestamp,
  kTimestampLtz,
  kArray,
  kMap,
  kRow,
};

struct ColumnType {
  ColumnKind kind = ColumnKind::kInt;
  int precision = 0;
  int scale = 0;
  bool not_null = false;
  // ARRAY: the element; MAP: key, value; ROW: the fields.
  std::vector<std::pair<std::string, ColumnType>> children;

  std::string Sql() const;
  // The type as Paimon's schema JSON writes it (atomic types as their SQL text, nested ones as
  // objects), for the Java oracle's create_table.
  nlohmann::json PaimonJson() const;
};

struct Column {
  std::string name;
  ColumnType type;
};

// The types the scenarios draw columns from: every atomic kind at its interesting precisions
// (compact and large decimals, each timestamp precision class) and nested rows, arrays, maps.
std::vector<ColumnType> ValueTypePool();

ColumnType Atomic(ColumnKind kind, int precision = 0, int scale = 0, bool not_null = false);

// A random value of `type` (null with probability 1/8 when the type is nullable).
nlohmann::json RandomValue(const ColumnType& type, std::mt19937_64* rng);

nlohmann::json NormalizeValue(const nlohmann::json& value, const ColumnType& type);

// One row line (a JSON object keyed by column name) in normal form, as comparable text; columns
// the line lacks are null, and a leading `_ROW_KIND` is kept.
std::string NormalizeRow(const nlohmann::json& row, const std::vector<Column>& columns);

}  // namespace sluice::test
