// The column types of the interop scenarios, as Sluice's own DataType (sluice/data_type.h: its
// ToString is the SQL text `sluice create-table` / `alter-table` take): the pool the scenarios
// draw from, random values in the JSON encoding of `sluice read --format jsonl` (value_json.h),
// and the normal form two such JSON values are compared in (numbers of FLOAT / DOUBLE columns
// as the float / double they denote, so that "1" and "1.0" are one value).
//
// Thread safety: value types and pure functions.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/data_type.h"

namespace sluice::test {

struct Column {
  std::string name;
  DataTypePtr type;
};

// The type as Paimon's schema JSON writes it (atomic types as their SQL text, nested ones as
// objects), for the Java oracle's create_table.
nlohmann::json PaimonJson(const DataTypePtr& type);

// The types the scenarios draw columns from: every atomic kind at its interesting precisions
// (compact and large decimals, each timestamp precision class) and nested rows, arrays, maps.
std::vector<DataTypePtr> ValueTypePool();

// A random value of `type` (null with probability 1/8 when the type is nullable).
nlohmann::json RandomValue(const DataTypePtr& type, std::mt19937_64* rng);

nlohmann::json NormalizeValue(const nlohmann::json& value, const DataTypePtr& type);

// One row line (a JSON object keyed by column name) in normal form, as comparable text; columns
// the line lacks are null, and a leading `_ROW_KIND` is kept.
std::string NormalizeRow(const nlohmann::json& row, const std::vector<Column>& columns);

}  // namespace sluice::test
