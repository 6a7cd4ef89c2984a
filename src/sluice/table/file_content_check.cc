#include "sluice/table/file_content_check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "sluice/base/string_util.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/io/stats_mode.h"
#include "sluice/row/binary_row.h"
#include "sluice/row_kind.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

// Field ids of the system columns of primary-key data files (Java SpecialFields).
constexpr int32_t kSequenceNumberFieldId = 2147483646;
constexpr int32_t kValueKindFieldId = 2147483645;
constexpr int32_t kRowIdFieldId = 2147483642;
// Since Paimon 1.0 the `_KEY_*` columns are collected as truncate(128) whatever the table mode.
constexpr int32_t kSystemColumnTruncateLength = 128;

bool IsFloating(const DataType& type) {
  return type.root() == TypeRoot::kFloat || type.root() == TypeRoot::kDouble;
}

bool IsNaN(const Value& v) {
  return v.kind() == Value::Kind::kFloat ? std::isnan(v.float32()) : std::isnan(v.float64());
}

// What re-reading a file gives for one column.
struct ActualStats {
  std::optional<Value> min;
  std::optional<Value> max;
  // Floating columns: the bounds of the values other than NaN (Parquet and ORC writers leave
  // NaN out of their statistics; Java's own collectors, used for Avro, order it last).
  std::optional<Value> min_no_nan;
  std::optional<Value> max_no_nan;
  int64_t null_count = 0;

  void Add(const Value& v, const DataType& type) {
    if (v.is_null()) {
      ++null_count;
      return;
    }
    if (!min || CompareValues(v, *min, type) < 0) min = v;
    if (!max || CompareValues(v, *max, type) > 0) max = v;
    if (IsFloating(type) && !IsNaN(v)) {
      if (!min_no_nan || CompareValues(v, *min_no_nan, type) < 0) min_no_nan = v;
      if (!max_no_nan || CompareValues(v, *max_no_nan, type) > 0) max_no_nan = v;
    }
  }
};

// The min and max a collector in `mode` records for `actual`: {min, max}, each nullopt when it
// records null. `skip_nan`: the format's statistics leave NaN out (Parquet, ORC).
std::pair<std::optional<Value>, std::optional<Value>> ExpectedBounds(const ActualStats& actual,
                                                                     const DataType& type,
                                                                     StatsMode mode,
                                                                     bool skip_nan) {
  if (mode.kind == StatsMode::Kind::kNone || mode.kind == StatsMode::Kind::kCounts || !actual.min) {
    return {std::nullopt, std::nullopt};
  }
  if (skip_nan && IsFloating(type)) return {actual.min_no_nan, actual.max_no_nan};
  ColumnStats kept = ApplyStatsMode({actual.min, actual.max, actual.null_count}, mode, type);
  return {kept.min, kept.max};
}

std::string Render(const std::optional<Value>& v) { return v ? v->DebugString() : "null"; }

int CompareKeys(const ValueList& a, const ValueList& b, const std::vector<DataField>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    int c = CompareValues(a[i], b[i], *fields[i].type);
    if (c != 0) return c;
  }
  return 0;
}

DataTypePtr NullableRow(const std::vector<DataField>& fields) {
  std::vector<DataField> out = fields;
  for (DataField& f : out) f.type = f.type->WithNullable(true);
  return DataType::Row(std::move(out));
}

// The stats mode of each of `columns` in a file at `level` whose value columns are
// `all_columns` (io's StatsModesOfColumns, the writer's rule); a malformed mode option is an
// InvalidArgument naming it.
Result<std::vector<StatsMode>> ValueStatsModes(const CoreOptions& options,
                                               const std::vector<std::string>& columns,
                                               const std::vector<std::string>& all_columns,
                                               int32_t level, bool avro_file) {
  SLUICE_ASSIGN_OR_RETURN(auto per_level, StatsModesPerLevel(options));
  std::optional<std::string> level_mode;
  if (auto it = per_level.find(level); it != per_level.end()) level_mode = it->second;
  SLUICE_ASSIGN_OR_RETURN(StatsMode table_mode,
                          StatsMode::Parse(level_mode.value_or(options.metadata_stats_mode())));
  // Java assigns modes over all value columns in order (the first-N limit counts them).
  SLUICE_ASSIGN_OR_RETURN(std::vector<StatsMode> all_modes,
                          StatsModesOfColumns(options, all_columns, avro_file, level_mode));
  std::map<std::string, StatsMode> by_name;
  for (size_t i = 0; i < all_columns.size(); ++i) by_name[all_columns[i]] = all_modes[i];
  std::vector<StatsMode> modes;
  for (const std::string& name : columns) {
    auto it = by_name.find(name);
    modes.push_back(it != by_name.end() ? it->second : table_mode);
  }
  return modes;
}

// Compares the recorded `stats` of `columns` with what the file gives (`actual`), one of each
// column's `modes` matching; problems go to `problems`.
void CompareStats(const std::string& who, std::string_view which, const SimpleStats& stats,
                  const std::vector<DataField>& columns, const std::vector<ActualStats>& actual,
                  const std::vector<std::vector<StatsMode>>& modes, bool orc_file,
                  bool floats_skip_nan, std::vector<std::string>* problems) {
  auto Problem = [problems](std::string line) { problems->push_back(std::move(line)); };
  const DataTypePtr row_type = NullableRow(columns);
  Result<ValueList> mins = DecodeSerializedBinaryRow(stats.min_values, *row_type);
  Result<ValueList> maxs = DecodeSerializedBinaryRow(stats.max_values, *row_type);
  if (!mins.ok() || !maxs.ok()) {
    Problem(who + ": " + std::string(which) + " stats rows do not decode as " +
            std::to_string(columns.size()) +
            " columns: " + (!mins.ok() ? mins.status() : maxs.status()).ToString());
    return;
  }
  if (stats.null_counts && stats.null_counts->size() != columns.size()) {
    Problem(who + ": " + std::string(which) + " stats have " +
            std::to_string(stats.null_counts->size()) + " null counts for " +
            std::to_string(columns.size()) + " columns");
    return;
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const DataField& column = columns[i];
    const std::string name = std::string(which) + " column '" + column.name + "'";
    if (stats.null_counts && (*stats.null_counts)[i] &&
        *(*stats.null_counts)[i] != actual[i].null_count) {
      Problem(who + ": " + name + " records " + std::to_string(*(*stats.null_counts)[i]) +
              " nulls, the file holds " + std::to_string(actual[i].null_count));
    }
    // Complex types carry no bounds (Java leaves them null); unknown bounds are sound.
    if (column.type->IsNested()) continue;
    // Java's ORC statistics of TIMESTAMP WITH LOCAL TIME ZONE columns are shifted by the
    // writing JVM's time zone (legacy timestamp mode): not comparable with the values.
    if (orc_file && column.type->root() == TypeRoot::kTimestampLtz) continue;
    const Value& min = (*mins)[i];
    const Value& max = (*maxs)[i];
    if (min.is_null() && max.is_null()) continue;
    bool matched = false;
    std::pair<std::optional<Value>, std::optional<Value>> expected;
    for (const StatsMode& mode : modes[i]) {
      expected = ExpectedBounds(actual[i], *column.type, mode, floats_skip_nan);
      auto same = [&](const Value& recorded, const std::optional<Value>& want) {
        if (recorded.is_null()) return true;
        if (!want) return false;
        // A zero bound may carry either sign: Parquet writes a zero min as -0.0 and a zero
        // max as +0.0 whatever the data holds.
        if (IsFloating(*column.type) && !IsNaN(recorded) && !IsNaN(*want)) {
          return recorded.kind() == Value::Kind::kFloat ? recorded.float32() == want->float32()
                                                        : recorded.float64() == want->float64();
        }
        return ValuesEqual(recorded, *want, *column.type);
      };
      if (same(min, expected.first) && same(max, expected.second)) {
        matched = true;
        break;
      }
    }
    if (!matched) {
      Problem(who + ": " + name + " records min " + min.DebugString() + ", max " +
              max.DebugString() + "; the file gives min " + Render(expected.first) + ", max " +
              Render(expected.second));
    }
  }
}

}  // namespace

Status CheckDataFileContent(const FileStoreTable& table, const std::string& path,
                            const ManifestEntry& entry, const TableSchema& schema,
                            bool collect_key_hashes, DataFileContentCheck* out) {
  auto Problem = [out](std::string line) { out->problems.push_back(std::move(line)); };
  const DataFileMeta& meta = entry.file;
  const bool primary_key = !schema.primary_keys().empty();

  // The value columns the file holds: the schema's, or only `_WRITE_COLS` when recorded.
  std::vector<DataField> value_fields;
  if (meta.write_cols) {
    for (const std::string& name : *meta.write_cols) {
      if (name == "_ROW_ID") {
        value_fields.push_back(
            {kRowIdFieldId, name, DataType::BigInt(), std::nullopt, std::nullopt});
        continue;
      }
      if (name == "_SEQUENCE_NUMBER") {
        value_fields.push_back(
            {kSequenceNumberFieldId, name, DataType::BigInt(), std::nullopt, std::nullopt});
        continue;
      }
      const DataField* f = schema.FieldByName(name);
      if (f == nullptr) {
        return Status::Corruption("write column '" + name + "' is not in schema " +
                                  std::to_string(schema.id()));
      }
      value_fields.push_back(*f);
    }
  } else {
    value_fields = schema.fields();
  }
  std::vector<DataField> read_fields;
  if (primary_key) {
    read_fields.push_back({kSequenceNumberFieldId, "_SEQUENCE_NUMBER", DataType::BigInt(false),
                           std::nullopt, std::nullopt});
    read_fields.push_back(
        {kValueKindFieldId, "_VALUE_KIND", DataType::TinyInt(false), std::nullopt, std::nullopt});
  }
  const size_t value_offset = read_fields.size();
  read_fields.insert(read_fields.end(), value_fields.begin(), value_fields.end());
  const DataTypePtr read_type = DataType::Row(read_fields);

  // Value stats columns: `_VALUE_STATS_COLS` when recorded, else every value column.
  std::vector<std::string> value_names;
  for (const DataField& f : value_fields) value_names.push_back(f.name);
  const std::vector<std::string> stats_names = meta.value_stats_cols.value_or(value_names);
  std::vector<DataField> stats_fields;
  std::vector<size_t> stats_index;
  for (const std::string& name : stats_names) {
    auto it = std::find(value_names.begin(), value_names.end(), name);
    if (it == value_names.end()) {
      return Status::Corruption("value stats column '" + name + "' is not a column of the file");
    }
    stats_index.push_back(value_offset + static_cast<size_t>(it - value_names.begin()));
    stats_fields.push_back(value_fields[static_cast<size_t>(it - value_names.begin())]);
  }
  // Key columns: the trimmed primary key, read from the value columns (the `_KEY_*` copies
  // hold the same values and are absent in thin mode).
  std::vector<DataField> key_fields;
  std::vector<size_t> key_index;
  for (const std::string& name : schema.trimmed_primary_keys()) {
    auto it = std::find(value_names.begin(), value_names.end(), name);
    if (it == value_names.end()) break;
    key_index.push_back(value_offset + static_cast<size_t>(it - value_names.begin()));
    key_fields.push_back(value_fields[static_cast<size_t>(it - value_names.begin())]);
  }
  const bool check_keys = primary_key && key_fields.size() == schema.trimmed_primary_keys().size();

  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, table.io()->OpenForRead(path));
  std::shared_ptr<RandomAccessFile> shared = std::move(file);
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const FileFormat> format, DetectFileFormat(*shared));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FormatReader> reader,
                          format->CreateReader(shared, read_type, ReaderOptions{}));

  std::vector<ActualStats> value_stats(stats_fields.size());
  std::vector<ActualStats> key_stats(key_fields.size());
  // Postpone-bucket files hold records as written, unsorted: Java records their first and
  // last keys as min and max (KeyValueDataFileWriter).
  const bool unsorted = entry.bucket == kPostponeBucket;
  std::optional<ValueList> min_key, max_key;
  std::optional<int64_t> min_seq, max_seq;
  int64_t rows = 0;
  int64_t deletes = 0;
  ColumnBatch batch(read_type);
  ValueList key;
  DataTypePtr key_row_type;
  std::set<int32_t> key_hashes;  // dynamic buckets: of every key the file holds
  while (true) {
    batch.Clear();
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    const int64_t n = batch.num_rows();
    rows += n;
    for (size_t c = 0; c < stats_fields.size(); ++c) {
      const ColumnVector& column = *batch.column(static_cast<int>(stats_index[c]));
      for (int64_t r = 0; r < n; ++r) value_stats[c].Add(column.GetValue(r), *stats_fields[c].type);
    }
    if (!primary_key) continue;
    const ColumnVector& seq = *batch.column(0);
    const ColumnVector& kind = *batch.column(1);
    for (int64_t r = 0; r < n; ++r) {
      const int64_t s = seq.GetValue(r).AsInt64();
      min_seq = std::min(min_seq.value_or(s), s);
      max_seq = std::max(max_seq.value_or(s), s);
      const int64_t k = kind.GetValue(r).AsInt64();
      if (k == RowKindToByte(RowKind::kUpdateBefore) || k == RowKindToByte(RowKind::kDelete)) {
        ++deletes;
      }
    }
    if (!check_keys) continue;
    for (int64_t r = 0; r < n; ++r) {
      key.clear();
      for (size_t c = 0; c < key_fields.size(); ++c) {
        key.push_back(batch.column(static_cast<int>(key_index[c]))->GetValue(r));
        key_stats[c].Add(key.back(), *key_fields[c].type);
      }
      if (unsorted) {
        if (!min_key) min_key = key;
        max_key = key;
      } else {
        if (!min_key || CompareKeys(key, *min_key, key_fields) < 0) min_key = key;
        if (!max_key || CompareKeys(key, *max_key, key_fields) > 0) max_key = key;
      }
      if (collect_key_hashes) {
        if (key_row_type == nullptr) key_row_type = DataType::Row(key_fields);
        SLUICE_ASSIGN_OR_RETURN(std::string bytes, EncodeBinaryRow(key, *key_row_type));
        SLUICE_ASSIGN_OR_RETURN(BinaryRowView view,
                                BinaryRowView::Make(bytes, static_cast<int>(key.size())));
        key_hashes.insert(view.HashCode());
      }
    }
  }
  if (collect_key_hashes && check_keys) out->key_hashes = std::move(key_hashes);

  if (rows != meta.row_count) {
    Problem("data file " + path + " holds " + std::to_string(rows) +
            " rows, its manifest entry records " + std::to_string(meta.row_count));
  }
  const std::string who = "data file " + path;
  const bool avro_file = format->identifier() == "avro";
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<StatsMode> modes,
      ValueStatsModes(table.options(), stats_names, value_names, meta.level, avro_file));
  std::vector<std::vector<StatsMode>> value_modes;
  // In thin mode (`data-file.thin-mode`) the value columns that double as key columns are
  // collected as system columns, truncate(128).
  const std::string* thin = table.options().Find("data-file.thin-mode");
  const bool thin_mode = primary_key && thin != nullptr && AsciiToLower(*thin) == "true";
  for (size_t i = 0; i < modes.size(); ++i) {
    value_modes.push_back({modes[i]});
    if (thin_mode &&
        std::find(schema.trimmed_primary_keys().begin(), schema.trimmed_primary_keys().end(),
                  stats_names[i]) != schema.trimmed_primary_keys().end()) {
      value_modes.back().push_back(StatsMode::Truncate(kSystemColumnTruncateLength));
    }
  }
  const bool orc_file = format->identifier() == "orc";
  const bool floats_skip_nan = !avro_file;
  CompareStats(who, "value", meta.value_stats, stats_fields, value_stats, value_modes, orc_file,
               floats_skip_nan, &out->problems);

  if (!primary_key) {
    if (meta.delete_row_count && *meta.delete_row_count != 0) {
      Problem(who + ": delete row count " + std::to_string(*meta.delete_row_count) +
              " in an append table");
    }
    return Status::OK();
  }
  if (min_seq && (*min_seq != meta.min_sequence_number || *max_seq != meta.max_sequence_number)) {
    Problem(who + ": sequence numbers run " + std::to_string(*min_seq) + ".." +
            std::to_string(*max_seq) + ", its manifest entry records " +
            std::to_string(meta.min_sequence_number) + ".." +
            std::to_string(meta.max_sequence_number));
  }
  if (meta.delete_row_count && *meta.delete_row_count != deletes) {
    Problem(who + ": holds " + std::to_string(deletes) +
            " -U/-D rows, its manifest entry records a delete row count of " +
            std::to_string(*meta.delete_row_count));
  }
  if (!check_keys || rows == 0) return Status::OK();
  auto check_key = [&](std::string_view which, const std::string& serialized,
                       const ValueList& actual) {
    Result<ValueList> recorded = DecodeSerializedBinaryRow(serialized, *NullableRow(key_fields));
    if (!recorded.ok()) {
      Problem(who + ": " + std::string(which) +
              " key does not decode: " + recorded.status().ToString());
    } else if (CompareKeys(*recorded, actual, key_fields) != 0) {
      Problem(who + ": " + std::string(which) + " key is " + Value::Row(*recorded).DebugString() +
              ", the file gives " + Value::Row(actual).DebugString());
    }
  };
  check_key("min", meta.min_key, *min_key);
  check_key("max", meta.max_key, *max_key);
  // Key stats are collected in full (before 1.0 in the table mode, since as truncate(128)).
  std::vector<std::string> key_names;
  for (const DataField& f : key_fields) key_names.push_back(f.name);
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<StatsMode> table_modes,
      ValueStatsModes(table.options(), key_names, value_names, meta.level, avro_file));
  std::vector<std::vector<StatsMode>> key_modes;
  for (const StatsMode& m : table_modes) {
    key_modes.push_back({StatsMode::Full(), StatsMode::Truncate(kSystemColumnTruncateLength), m});
  }
  CompareStats(who, "key", meta.key_stats, key_fields, key_stats, key_modes, orc_file,
               floats_skip_nan, &out->problems);
  return Status::OK();
}

void CheckManifestPartitionStats(const std::string& who, const SimpleStats& stats,
                                 const DataType& partition_type,
                                 const std::vector<ManifestEntry>& entries,
                                 std::vector<std::string>* problems) {
  const std::vector<DataField>& fields = partition_type.fields();
  if (fields.empty()) return;
  std::vector<ActualStats> actual(fields.size());
  for (const ManifestEntry& e : entries) {
    Result<ValueList> values = DecodeSerializedBinaryRow(e.partition, partition_type);
    if (!values.ok()) {
      problems->push_back(who + ": partition of " + e.file.file_name + ": " +
                          values.status().ToString());
      return;
    }
    for (size_t i = 0; i < fields.size(); ++i) actual[i].Add((*values)[i], *fields[i].type);
  }
  const std::vector<std::vector<StatsMode>> modes(fields.size(), {StatsMode::Full()});
  CompareStats(who, "partition", stats, fields, actual, modes, /*orc_file=*/false,
               /*floats_skip_nan=*/false, problems);
}

}  // namespace sluice
