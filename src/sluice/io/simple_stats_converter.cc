#include "sluice/io/simple_stats_converter.h"

#include "sluice/row/binary_row.h"

namespace sluice {

namespace {

bool IsUnknown(const ColumnStats& s) { return !s.min && !s.max && !s.null_count; }

Result<SimpleStats> Encode(const std::vector<const ColumnStats*>& stats,
                           const std::vector<DataField>& fields) {
  std::vector<DataField> nullable;
  nullable.reserve(fields.size());
  ValueList mins;
  ValueList maxs;
  std::vector<std::optional<int64_t>> null_counts;
  for (size_t i = 0; i < fields.size(); ++i) {
    DataField f = fields[i];
    f.type = f.type->WithNullable(true);
    nullable.push_back(std::move(f));
    mins.push_back(stats[i]->min.value_or(Value::Null()));
    maxs.push_back(stats[i]->max.value_or(Value::Null()));
    null_counts.push_back(stats[i]->null_count);
  }
  const DataTypePtr row_type = DataType::Row(std::move(nullable));
  const int arity = static_cast<int>(fields.size());
  SimpleStats out;
  SLUICE_ASSIGN_OR_RETURN(std::string min_row, EncodeBinaryRow(mins, *row_type));
  SLUICE_ASSIGN_OR_RETURN(std::string max_row, EncodeBinaryRow(maxs, *row_type));
  out.min_values = SerializeBinaryRow(min_row, arity);
  out.max_values = SerializeBinaryRow(max_row, arity);
  out.null_counts = std::move(null_counts);
  return out;
}

}  // namespace

Result<SimpleStats> ToSimpleStatsAllMode(const std::vector<ColumnStats>& stats,
                                         const std::vector<DataField>& fields) {
  std::vector<const ColumnStats*> all;
  all.reserve(stats.size());
  for (const ColumnStats& s : stats) all.push_back(&s);
  return Encode(all, fields);
}

Result<ConvertedStats> ToSimpleStats(const std::vector<ColumnStats>& stats,
                                     const std::vector<DataField>& fields, bool dense_store) {
  ConvertedStats out;
  if (!dense_store) {
    SLUICE_ASSIGN_OR_RETURN(out.stats, ToSimpleStatsAllMode(stats, fields));
    return out;
  }
  std::vector<const ColumnStats*> kept;
  std::vector<DataField> kept_fields;
  std::vector<std::string> names;
  for (size_t i = 0; i < stats.size(); ++i) {
    if (IsUnknown(stats[i])) continue;
    kept.push_back(&stats[i]);
    kept_fields.push_back(fields[i]);
    names.push_back(fields[i].name);
  }
  SLUICE_ASSIGN_OR_RETURN(out.stats, Encode(kept, kept_fields));
  if (kept.size() != stats.size()) out.columns = std::move(names);
  return out;
}

SimpleStats EmptySimpleStats() {
  SimpleStats s;
  s.min_values = EmptySerializedRow();
  s.max_values = EmptySerializedRow();
  s.null_counts = std::vector<std::optional<int64_t>>{};
  return s;
}

}  // namespace sluice
