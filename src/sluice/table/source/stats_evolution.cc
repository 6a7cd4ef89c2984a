#include "sluice/table/source/stats_evolution.h"

#include "sluice/row/binary_row.h"

namespace sluice {

StatsEvolution StatsEvolution::Make(const std::vector<DataField>& read_fields,
                                    const TableSchema& file_schema,
                                    const std::vector<std::string>& stats_columns) {
  StatsEvolution evolution;
  evolution.stats_arity_ = static_cast<int>(stats_columns.size());
  evolution.sources_.resize(read_fields.size());
  for (size_t i = 0; i < read_fields.size(); ++i) {
    Source& source = evolution.sources_[i];
    const DataField* file_field = file_schema.FieldById(read_fields[i].id);
    if (file_field == nullptr) {
      source.stats_index = kAllNull;
      continue;
    }
    if (!file_field->type->EqualsIgnoreNullable(*read_fields[i].type)) continue;
    for (size_t c = 0; c < stats_columns.size(); ++c) {
      if (stats_columns[c] == file_field->name) {
        source.stats_index = static_cast<int>(c);
        source.type = file_field->type;
        break;
      }
    }
  }
  return evolution;
}

std::vector<ColumnStats> StatsEvolution::Evolve(const SimpleStats& stats, int64_t row_count,
                                                std::span<const int> wanted) const {
  std::vector<ColumnStats> out(sources_.size());
  auto min_row = BinaryRowView::FromSerialized(stats.min_values);
  auto max_row = BinaryRowView::FromSerialized(stats.max_values);
  const bool bounds_usable = min_row.ok() && max_row.ok() && min_row->arity() == stats_arity_ &&
                             max_row->arity() == stats_arity_;
  const bool null_counts_usable =
      stats.null_counts.has_value() && static_cast<int>(stats.null_counts->size()) == stats_arity_;
  for (int i : wanted) {
    if (i < 0 || i >= static_cast<int>(sources_.size())) continue;
    const Source& source = sources_[i];
    if (source.stats_index == kAllNull) {
      out[i].null_count = row_count;
      continue;
    }
    if (source.stats_index == kUnknown) continue;
    if (null_counts_usable) out[i].null_count = (*stats.null_counts)[source.stats_index];
    if (!bounds_usable) continue;
    auto min = DecodeBinaryRowField(*min_row, source.stats_index, *source.type);
    auto max = DecodeBinaryRowField(*max_row, source.stats_index, *source.type);
    if (min.ok() && max.ok() && !min->is_null() && !max->is_null()) {
      out[i].min = std::move(*min);
      out[i].max = std::move(*max);
    }
  }
  return out;
}

}  // namespace sluice
