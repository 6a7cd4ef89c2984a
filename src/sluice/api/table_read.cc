#include "sluice/table_read.h"

#include "sluice/api/api_access.h"
#include "sluice/api/parallel_table_reader.h"
#include "sluice/api/read_context.h"
#include "sluice/table/source/data_evolution_split_reader.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

namespace {

// The public face of one split's reader.
class SplitBatchReader : public BatchReader {
 public:
  explicit SplitBatchReader(std::unique_ptr<SplitReader> reader) : reader_(std::move(reader)) {}

  const DataTypePtr& output_type() const override { return reader_->output_type(); }
  Result<bool> Next(ColumnBatch* batch) override {
    if (failed_) return false;
    Result<bool> more = reader_->Next(batch);
    failed_ = !more.ok();
    return more;
  }

 private:
  std::unique_ptr<SplitReader> reader_;
  bool failed_ = false;
};

}  // namespace

const DataTypePtr& TableRead::output_type() const { return context_->output_type; }

Result<std::unique_ptr<BatchReader>> TableRead::CreateReader(const Split& split) const {
  const ReadContext& context = *context_;
  const DataSplit& data_split = ApiAccess::DataSplitOf(split);
  const bool fallback = data_split.from_fallback_branch;
  if (fallback && context.scan.fallback_table == nullptr) {
    return Status::InvalidArgument(context.name +
                                   ": a split of the scan.fallback-branch, read without one");
  }
  const FileStoreTable& table = fallback ? *context.scan.fallback_table : *context.table;
  const std::shared_ptr<const TableSchema>& schema =
      fallback ? context.fallback_read_schema : context.read_schema;
  // Row-tracking and data-evolution splits stitch files by row id; everything else goes
  // through OpenSplitReader (raw, deletion vectors, merge-on-read, delta).
  Result<std::unique_ptr<SplitReader>> reader =
      !context.read_options.with_row_kind &&
              DataEvolutionSplitReader::Handles(table, context.read_options.projection)
          ? DataEvolutionSplitReader::Open(table, schema, data_split, context.read_options)
          : OpenSplitReader(table, schema, data_split, context.read_options);
  if (!reader.ok()) return reader.status();
  return std::unique_ptr<BatchReader>(new SplitBatchReader(std::move(*reader)));
}

Result<std::unique_ptr<BatchReader>> TableRead::CreateReader(std::vector<Split> splits) const {
  return std::unique_ptr<BatchReader>(new ParallelTableReader(*this, std::move(splits), context_));
}

}  // namespace sluice
