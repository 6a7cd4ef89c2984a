#include "sluice/table/source/merge_split_reader.h"

#include <string>
#include <unordered_map>
#include <utility>

#include "sluice/batch/column_take.h"
#include "sluice/lsm/interval_partition.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/row_kind.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/source/sorted_run_file_reader.h"
#include "sluice/table/source/split_read_util.h"

namespace sluice {

MergeSplitReader::MergeSplitReader(const FileStoreTable& table,
                                   std::shared_ptr<const TableSchema> read_schema, DataSplit split,
                                   SplitReadOptions options, ReadColumns columns,
                                   std::vector<std::vector<RunFiles>> sections,
                                   std::unique_ptr<MergeFunction> merge_function,
                                   SortedRunMerge::Options merge,
                                   std::shared_ptr<const TimeZone> session_zone)
    : table_(table),
      read_schema_(std::move(read_schema)),
      split_(std::move(split)),
      options_(std::move(options)),
      columns_(std::move(columns)),
      sections_(std::move(sections)),
      merge_function_(std::move(merge_function)),
      merge_options_(std::move(merge)),
      session_zone_(std::move(session_zone)) {
  consumer_ = [this](const ColumnBatch* const* sources, size_t num_sources, const uint32_t* indexes,
                     const int64_t* rows,
                     int64_t n) { return Take(sources, num_sources, indexes, rows, n); };
  if (columns_.filter != nullptr) {
    staged_ = std::make_unique<ColumnBatch>(merge_options_.record_type);
  }
}

Result<std::unique_ptr<MergeSplitReader>> MergeSplitReader::Open(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
    SplitReadOptions options) {
  SLUICE_RETURN_NOT_OK(CheckSplitFiles(split, options));
  SLUICE_RETURN_NOT_OK(CheckBatchSize(options));
  // The engine and its options come from the read schema, overridden by this load's dynamic
  // options (Java table.copy(options)).
  SLUICE_ASSIGN_OR_RETURN(CoreOptions core_options,
                          CoreOptions::FromSchema(*read_schema, table.dynamic_options()));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> merge_function,
                          CreateMergeFunction(*read_schema, core_options));
  SLUICE_ASSIGN_OR_RETURN(std::optional<UserSequenceComparator> sequence,
                          UserSequenceComparator::Make(*read_schema, core_options));
  // Engines that pick one of a key's records need no value field beyond what the read shows.
  SLUICE_ASSIGN_OR_RETURN(ReadColumns columns,
                          ReadColumns::Make(*read_schema, options, !merge_function->picks_record(),
                                            core_options.sequence_field()));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TimeZone> session_zone, LoadSessionZone(options));
  SortedRunMerge::Options merge;
  merge.record_type = KeyValueFileReader::RecordType(columns.value_type);
  merge.key_columns = columns.key_columns;
  if (sequence) {
    for (int field : sequence->fields()) {
      merge.sequence_columns.push_back(columns.schema_to_value[static_cast<size_t>(field)]);
    }
    merge.sequence_ascending = sequence->ascending();
  }
  merge.drop_retractions = !options.keep_delete;
  // Sections of sorted runs, each run as indexes of the split's files.
  const DataTypePtr key_type = read_schema->LogicalTrimmedPrimaryKeysType();
  std::vector<LevelFilePtr> level_files;
  std::unordered_map<std::string, size_t> file_index;
  for (size_t i = 0; i < split.data_files.size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(LevelFilePtr file, LevelFile::Make(split.data_files[i], *key_type));
    level_files.push_back(std::move(file));
    file_index[split.data_files[i].file_name] = i;
  }
  SLUICE_ASSIGN_OR_RETURN(KeyValueMergeOrder key_order,
                          KeyValueMergeOrder::Make(*read_schema, core_options));
  std::vector<std::vector<RunFiles>> sections;
  for (const auto& section : PartitionIntervals(std::move(level_files), key_order)) {
    std::vector<RunFiles>& runs = sections.emplace_back();
    for (const SortedRun& run : section) {
      RunFiles& files = runs.emplace_back();
      for (const LevelFilePtr& file : run.files())
        files.push_back(file_index[file->meta.file_name]);
    }
  }
  return std::unique_ptr<MergeSplitReader>(new MergeSplitReader(
      table, std::move(read_schema), std::move(split), std::move(options), std::move(columns),
      std::move(sections), std::move(merge_function), std::move(merge), std::move(session_zone)));
}

Status MergeSplitReader::OpenSection(size_t index) {
  KeyValueFileReader::Options file_options;
  file_options.batch_size = options_.batch_size;
  file_options.session_zone = session_zone_;
  file_options.skip_filter = columns_.key_filter;
  std::vector<std::unique_ptr<SortedRunReader>> runs;
  for (const RunFiles& files : sections_[index]) {
    runs.push_back(std::make_unique<SortedRunFileReader>(table_, *read_schema_, columns_.value_type,
                                                         split_, files, file_options,
                                                         &options_.deleted_positions));
  }
  SLUICE_ASSIGN_OR_RETURN(
      merge_, SortedRunMerge::Open(merge_options_, std::move(runs), merge_function_.get()));
  return Status::OK();
}

Status MergeSplitReader::Take(const ColumnBatch* const* sources, size_t num_sources,
                              const uint32_t* indexes, const int64_t* rows, int64_t n) {
  const int kind_column = merge_options_.record_type->num_fields() - 1;
  if (staged_ == nullptr) {
    columns_.AppendOutputFrom(sources, num_sources, indexes, rows, n, kind_column, out_);
    return Status::OK();
  }
  staged_sources_.resize(num_sources);
  for (int c = 0; c < staged_->num_columns(); ++c) {
    for (size_t s = 0; s < num_sources; ++s) {
      staged_sources_[s] = sources[s] != nullptr ? sources[s]->column(c) : nullptr;
    }
    TakeRowsFrom(staged_sources_.data(), indexes, rows, n, staged_->column(c));
  }
  staged_->set_num_rows(staged_->num_rows() + n);
  return Status::OK();
}

Result<bool> MergeSplitReader::Next(ColumnBatch* batch) {
  batch->Clear();
  out_ = batch;
  while (batch->num_rows() < options_.batch_size) {
    if (merge_ == nullptr) {
      if (next_section_ >= sections_.size()) break;
      SLUICE_RETURN_NOT_OK(OpenSection(next_section_++));
    }
    if (staged_ != nullptr) staged_->Clear();
    SLUICE_ASSIGN_OR_RETURN(bool more,
                            merge_->Next(options_.batch_size - batch->num_rows(), consumer_));
    if (!more) merge_.reset();
    if (staged_ == nullptr || staged_->num_rows() == 0) continue;
    const int64_t n = staged_->num_rows();
    selection_.assign(static_cast<size_t>(n), 1);
    columns_.filter->Filter(*staged_, selection_.data());
    rows_.clear();
    for (int64_t i = 0; i < n; ++i) {
      if (selection_[static_cast<size_t>(i)] != 0) rows_.push_back(i);
    }
    const int kind_column = merge_options_.record_type->num_fields() - 1;
    columns_.AppendOutput(*staged_, rows_.data(), static_cast<int64_t>(rows_.size()),
                          staged_->column(kind_column)->data<int8_t>(), batch);
  }
  return batch->num_rows() > 0;
}

}  // namespace sluice
