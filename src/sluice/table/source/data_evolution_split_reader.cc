#include "sluice/table/source/data_evolution_split_reader.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "sluice/batch/column_take.h"
#include "sluice/format/blob_file_reader.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/table/source/schema_evolution.h"
#include "sluice/table/source/split_read_util.h"

namespace sluice {

namespace {

constexpr std::string_view kRowIdName = "_ROW_ID";
constexpr std::string_view kSequenceNumberName = "_SEQUENCE_NUMBER";

bool IsBlobFile(const std::string& path) { return path.ends_with(".blob"); }

DataField SystemField(int32_t id, std::string_view name) {
  return DataField{.id = id,
                   .name = std::string(name),
                   .type = DataType::BigInt(),
                   .description = std::nullopt,
                   .default_value = std::nullopt};
}

bool Writes(const DataFileMeta& meta, std::string_view name) {
  return meta.write_cols && std::find(meta.write_cols->begin(), meta.write_cols->end(), name) !=
                                meta.write_cols->end();
}

// Appends `n` rows of `in` starting at `begin` to `out`.
void AppendRange(const ColumnVector& in, int64_t begin, int64_t n, std::vector<int64_t>* rows,
                 ColumnVector* out) {
  rows->resize(static_cast<size_t>(n));
  std::iota(rows->begin(), rows->end(), begin);
  TakeRows(in, rows->data(), n, out);
}

}  // namespace

bool DataEvolutionSplitReader::Handles(const FileStoreTable& table,
                                       const std::vector<std::string>& projection) {
  if (table.schema().is_primary_key_table()) return false;
  if (table.options().data_evolution_enabled()) return true;
  if (!table.options().row_tracking_enabled()) return false;
  return std::any_of(projection.begin(), projection.end(), [](const std::string& name) {
    return name == kRowIdName || name == kSequenceNumberName;
  });
}

Result<std::unique_ptr<SplitReader>> DataEvolutionSplitReader::Open(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
    SplitReadOptions options) {
  if (!split.deletion_files.empty() || !options.deleted_positions.empty()) {
    return Status::NotSupported("deletion vectors on a row-tracking table (bucket " +
                                std::to_string(split.bucket) + ")");
  }
  SLUICE_RETURN_NOT_OK(CheckSplitFiles(split, options));
  std::unique_ptr<DataEvolutionSplitReader> reader(
      new DataEvolutionSplitReader(table, std::move(read_schema), std::move(split)));
  reader->batch_size_ = std::max<int64_t>(1, options.batch_size);
  SLUICE_ASSIGN_OR_RETURN(reader->session_zone_, LoadSessionZone(options));
  const DataTypePtr row_type = reader->read_schema_->LogicalRowType();

  // Output columns: read-schema fields or system columns (-1 / -2 until placed).
  std::vector<int> output_source;
  if (options.projection.empty()) {
    output_source.resize(static_cast<size_t>(row_type->num_fields()));
    std::iota(output_source.begin(), output_source.end(), 0);
  } else {
    for (const std::string& name : options.projection) {
      const int index = row_type->FieldIndex(name);
      if (index >= 0) {
        output_source.push_back(index);
      } else if (name == kRowIdName) {
        output_source.push_back(-1);
      } else if (name == kSequenceNumberName) {
        output_source.push_back(-2);
      } else {
        return Status::InvalidArgument("projected column '" + name + "' is not in schema " +
                                       std::to_string(reader->read_schema_->id()));
      }
    }
  }
  std::vector<bool> needed(static_cast<size_t>(row_type->num_fields()), false);
  for (int index : output_source) {
    if (index >= 0) needed[static_cast<size_t>(index)] = true;
  }
  SLUICE_RETURN_NOT_OK(MarkFilterFields(options.filter, &needed));
  std::vector<int> work_position(needed.size(), -1);
  std::vector<DataField> work_fields;
  const auto& keys = reader->read_schema_->partition_keys();
  for (size_t i = 0; i < needed.size(); ++i) {
    if (!needed[i]) continue;
    work_position[i] = static_cast<int>(work_fields.size());
    const DataField& field = row_type->fields()[i];
    auto key = std::find(keys.begin(), keys.end(), field.name);
    const size_t key_index = static_cast<size_t>(key - keys.begin());
    reader->partition_index_.push_back(key != keys.end() &&
                                               key_index < reader->split_.partition_values.size()
                                           ? static_cast<int>(key_index)
                                           : -1);
    work_fields.push_back(field);
  }
  reader->row_id_column_ = static_cast<int>(work_fields.size());
  work_fields.push_back(SystemField(kRowIdFieldId, kRowIdName));
  reader->partition_index_.push_back(-1);
  reader->sequence_column_ = static_cast<int>(work_fields.size());
  work_fields.push_back(SystemField(kSequenceNumberFieldId, kSequenceNumberName));
  reader->partition_index_.push_back(-1);
  reader->work_type_ = DataType::Row(std::move(work_fields));

  std::vector<DataField> output_fields;
  for (int source : output_source) {
    const int column = source >= 0    ? work_position[static_cast<size_t>(source)]
                       : source == -1 ? reader->row_id_column_
                                      : reader->sequence_column_;
    reader->projection_.push_back(column);
    output_fields.push_back(reader->work_type_->fields()[static_cast<size_t>(column)]);
  }
  reader->output_type_ = DataType::Row(std::move(output_fields));
  if (options.filter != nullptr) reader->filter_ = options.filter->Remap(work_position);

  // Groups: files whose row ranges overlap (data evolution), else one file each.
  const std::vector<DataFileMeta>& files = reader->split_.data_files;
  std::vector<size_t> order(files.size());
  std::iota(order.begin(), order.end(), 0);
  if (table.options().data_evolution_enabled()) {
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return files[a].first_row_id.value_or(-1) < files[b].first_row_id.value_or(-1);
    });
    int64_t group_end = -1;
    for (size_t index : order) {
      const DataFileMeta& meta = files[index];
      if (!meta.first_row_id) {
        reader->groups_.push_back({index});
        group_end = -1;
        continue;
      }
      const int64_t begin = *meta.first_row_id;
      if (reader->groups_.empty() || group_end < 0 || begin >= group_end) {
        reader->groups_.push_back({index});
        group_end = begin + meta.row_count;
      } else {
        reader->groups_.back().push_back(index);
        group_end = std::max(group_end, begin + meta.row_count);
      }
    }
  } else {
    for (size_t index : order) reader->groups_.push_back({index});
  }
  return std::unique_ptr<SplitReader>(std::move(reader));
}

Status DataEvolutionSplitReader::ReadFileColumns(
    size_t file, const std::vector<int>& fields,
    std::vector<std::unique_ptr<ColumnVector>>* columns) {
  const DataFileMeta& meta = split_.data_files[file];
  const std::string& path = split_.data_file_paths[file];
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> opened,
                          table_.io()->OpenForReadWithSize(path, meta.file_size));
  std::shared_ptr<RandomAccessFile> handle = std::move(opened);
  if (IsBlobFile(path)) {
    if (fields.size() != 1) {
      return Status::Corruption("blob file " + path + " supplies " + std::to_string(fields.size()) +
                                " columns");
    }
    ColumnVector* out = (*columns)[static_cast<size_t>(fields[0])].get();
    SLUICE_RETURN_NOT_OK(ReadBlobFile(*handle, out));
    if (out->size() != meta.row_count) {
      return Status::Corruption("blob file " + path + " holds " + std::to_string(out->size()) +
                                " values, its manifest entry " + std::to_string(meta.row_count));
    }
    return Status::OK();
  }
  // Stored system columns are read by their field ids; table columns through FileEvolution.
  std::vector<DataField> table_fields;
  std::vector<int> table_targets;
  std::vector<DataField> system_fields;
  std::vector<int> system_targets;
  for (int field : fields) {
    const DataField& f = work_type_->fields()[static_cast<size_t>(field)];
    if (field == row_id_column_ || field == sequence_column_) {
      system_fields.push_back(f);
      system_targets.push_back(field);
    } else {
      table_fields.push_back(f);
      table_targets.push_back(field);
    }
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const FileFormat> format, DetectFileFormat(*handle));
  auto read_all = [&](const DataTypePtr& type, auto&& append) -> Status {
    auto reader = format->CreateReader(handle, type, ReaderOptions{});
    if (!reader.ok()) return reader.status().WithContext("data file " + path);
    ColumnBatch batch(type);
    while (true) {
      auto more = (*reader)->Next(&batch);
      if (!more.ok()) return more.status().WithContext("data file " + path);
      if (!*more) return Status::OK();
      SLUICE_RETURN_NOT_OK(append(batch));
    }
  };
  if (!table_fields.empty()) {
    std::shared_ptr<const TableSchema> file_schema = read_schema_;
    if (meta.schema_id != read_schema_->id()) {
      SLUICE_ASSIGN_OR_RETURN(file_schema, table_.SchemaById(meta.schema_id));
    }
    SLUICE_ASSIGN_OR_RETURN(
        FileEvolution evolution,
        FileEvolution::Make(*file_schema, DataType::Row(table_fields), {}, {}, session_zone_));
    ColumnBatch evolved(evolution.read_type());
    SLUICE_RETURN_NOT_OK(read_all(evolution.file_read_type(), [&](const ColumnBatch& batch) {
      evolved.Clear();
      SLUICE_RETURN_NOT_OK_CTX(evolution.Apply(batch, &evolved), "data file " + path);
      for (size_t i = 0; i < table_targets.size(); ++i) {
        AppendAll(*evolved.column(static_cast<int>(i)),
                  (*columns)[static_cast<size_t>(table_targets[i])].get());
      }
      return Status::OK();
    }));
  }
  if (!system_fields.empty()) {
    SLUICE_RETURN_NOT_OK(read_all(DataType::Row(system_fields), [&](const ColumnBatch& batch) {
      for (size_t i = 0; i < system_targets.size(); ++i) {
        AppendAll(*batch.column(static_cast<int>(i)),
                  (*columns)[static_cast<size_t>(system_targets[i])].get());
      }
      return Status::OK();
    }));
  }
  for (int field : fields) {
    const int64_t rows = (*columns)[static_cast<size_t>(field)]->size();
    if (rows != meta.row_count) {
      return Status::Corruption("data file " + path + " read " + std::to_string(rows) +
                                " rows, its manifest entry has " + std::to_string(meta.row_count));
    }
  }
  return Status::OK();
}

Status DataEvolutionSplitReader::LoadGroup(size_t index) {
  const std::vector<size_t>& group = groups_[index];
  const std::vector<DataFileMeta>& files = split_.data_files;
  // The group's row range: [start, start + n).
  const bool has_row_ids = files[group[0]].first_row_id.has_value();
  const int64_t start = has_row_ids ? *files[group[0]].first_row_id : 0;
  int64_t n = 0;
  for (size_t file : group) {
    n = std::max(n, files[file].first_row_id.value_or(start) - start + files[file].row_count);
  }
  auto begin_of = [&](size_t file) { return files[file].first_row_id.value_or(start) - start; };

  // The file each row takes each column from: the newest covering file that wrote it.
  std::vector<size_t> newest_first = group;
  std::stable_sort(newest_first.begin(), newest_first.end(), [&](size_t a, size_t b) {
    return files[a].max_sequence_number > files[b].max_sequence_number;
  });
  const int num_work = work_type_->num_fields();
  std::vector<std::vector<int>> owner(static_cast<size_t>(num_work));
  std::vector<std::vector<int>> file_fields(files.size());
  for (int field = 0; field < num_work; ++field) {
    if (partition_index_[static_cast<size_t>(field)] >= 0) continue;
    const DataField& f = work_type_->fields()[static_cast<size_t>(field)];
    std::vector<int>& rows = owner[static_cast<size_t>(field)];
    rows.assign(static_cast<size_t>(n), -1);
    for (size_t file : newest_first) {
      const DataFileMeta& meta = files[file];
      bool writes = false;
      if (field == row_id_column_ || field == sequence_column_) {
        writes = Writes(meta, f.name);
      } else {
        std::shared_ptr<const TableSchema> schema = read_schema_;
        if (meta.schema_id != read_schema_->id()) {
          SLUICE_ASSIGN_OR_RETURN(schema, table_.SchemaById(meta.schema_id));
        }
        const DataField* file_field = schema->FieldById(f.id);
        if (file_field != nullptr) {
          if (meta.write_cols) {
            writes = Writes(meta, file_field->name);
          } else {
            // A file without write_cols holds every non-BLOB column of its schema; BLOB columns
            // are in .blob files.
            writes = IsBlobFile(split_.data_file_paths[file]) ||
                     file_field->type->root() != TypeRoot::kBlob;
          }
        }
      }
      if (!writes) continue;
      bool used = false;
      const int64_t begin = begin_of(file);
      for (int64_t r = begin; r < begin + meta.row_count && r < n; ++r) {
        if (rows[static_cast<size_t>(r)] < 0) {
          rows[static_cast<size_t>(r)] = static_cast<int>(file);
          used = true;
        }
      }
      if (used) file_fields[file].push_back(field);
    }
  }

  // Read what each file supplies.
  std::vector<std::vector<std::unique_ptr<ColumnVector>>> file_columns(files.size());
  for (size_t file : group) {
    if (file_fields[file].empty()) continue;
    auto& columns = file_columns[file];
    for (int field = 0; field < num_work; ++field) {
      columns.push_back(
          std::make_unique<ColumnVector>(work_type_->fields()[static_cast<size_t>(field)].type));
    }
    SLUICE_RETURN_NOT_OK(ReadFileColumns(file, file_fields[file], &columns));
  }

  // Stitch.
  group_batch_ = std::make_unique<ColumnBatch>(work_type_);
  std::vector<int64_t> rows;
  for (int field = 0; field < num_work; ++field) {
    ColumnVector* out = group_batch_->column(field);
    const int partition = partition_index_[static_cast<size_t>(field)];
    if (partition >= 0) {
      ColumnVector constant(out->type());
      const Value& value = split_.partition_values[static_cast<size_t>(partition)];
      if (value.is_null()) {
        constant.AppendNull();
      } else {
        SLUICE_RETURN_NOT_OK(constant.AppendValue(value));
      }
      rows.assign(static_cast<size_t>(n), 0);
      TakeRows(constant, rows.data(), n, out);
      continue;
    }
    const std::vector<int>& row_owner = owner[static_cast<size_t>(field)];
    int64_t r = 0;
    while (r < n) {
      const int file = row_owner[static_cast<size_t>(r)];
      int64_t run = r + 1;
      while (run < n && row_owner[static_cast<size_t>(run)] == file) ++run;
      if (file < 0) {
        AppendNulls(run - r, out);
      } else {
        AppendRange(*file_columns[static_cast<size_t>(file)][static_cast<size_t>(field)],
                    r - begin_of(static_cast<size_t>(file)), run - r, &rows, out);
      }
      r = run;
    }
  }
  // Row ids and sequence numbers the files do not store.
  ColumnVector* row_ids = group_batch_->column(row_id_column_);
  ColumnVector* sequences = group_batch_->column(sequence_column_);
  for (int64_t r = 0; r < n; ++r) {
    if (row_ids->IsNull(r) && has_row_ids) {
      row_ids->MutableValidity()[r] = 1;
      row_ids->data<int64_t>()[r] = start + r;
    }
    if (sequences->IsNull(r)) {
      int64_t sequence = -1;
      for (size_t file : group) {
        const int64_t begin = begin_of(file);
        if (r >= begin && r < begin + files[file].row_count) {
          sequence = std::max(sequence, files[file].max_sequence_number);
        }
      }
      if (sequence >= 0) {
        sequences->MutableValidity()[r] = 1;
        sequences->data<int64_t>()[r] = sequence;
      }
    }
  }
  group_batch_->set_num_rows(n);

  selected_.clear();
  next_selected_ = 0;
  if (filter_ != nullptr) {
    std::vector<uint8_t> selection(static_cast<size_t>(n), 1);
    filter_->Filter(*group_batch_, selection.data());
    for (int64_t r = 0; r < n; ++r) {
      if (selection[static_cast<size_t>(r)] != 0) selected_.push_back(r);
    }
  } else {
    selected_.resize(static_cast<size_t>(n));
    std::iota(selected_.begin(), selected_.end(), 0);
  }
  return Status::OK();
}

Result<bool> DataEvolutionSplitReader::Next(ColumnBatch* batch) {
  while (next_selected_ >= selected_.size()) {
    if (next_group_ >= groups_.size()) return false;
    SLUICE_RETURN_NOT_OK(LoadGroup(next_group_++));
  }
  const int64_t count =
      std::min<int64_t>(batch_size_, static_cast<int64_t>(selected_.size() - next_selected_));
  batch->Clear();
  for (size_t c = 0; c < projection_.size(); ++c) {
    TakeRows(*group_batch_->column(projection_[c]), selected_.data() + next_selected_, count,
             batch->column(static_cast<int>(c)));
  }
  batch->set_num_rows(count);
  next_selected_ += static_cast<size_t>(count);
  return true;
}

}  // namespace sluice
