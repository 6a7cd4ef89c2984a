#include "sluice/read_plan.h"

#include "sluice/api/parallel_table_reader.h"
#include "sluice/api/read_plan_state.h"
#include "sluice/table/source/data_evolution_split_reader.h"

namespace sluice {

std::optional<int64_t> ReadPlan::snapshot_id() const { return state_->snapshot_id; }

const std::vector<DataSplit>& ReadPlan::splits() const { return state_->splits; }

const DataTypePtr& ReadPlan::output_type() const { return state_->output_type; }

Result<std::unique_ptr<SplitReader>> ReadPlan::OpenSplit(size_t index) const {
  if (index >= state_->splits.size()) {
    return Status::InvalidArgument("split " + std::to_string(index) + " of a plan of " +
                                   std::to_string(state_->splits.size()));
  }
  // Row-tracking and data-evolution splits stitch files by row id; everything else goes
  // through OpenSplitReader (raw, deletion vectors, merge-on-read, delta).
  if (!state_->read_options.with_row_kind &&
      DataEvolutionSplitReader::Handles(*state_->table, state_->read_options.projection)) {
    return DataEvolutionSplitReader::Open(*state_->table, state_->read_schema,
                                          state_->splits[index], state_->read_options);
  }
  return OpenSplitReader(*state_->table, state_->read_schema, state_->splits[index],
                         state_->read_options);
}

Result<std::unique_ptr<TableReader>> ReadPlan::NewReader() const {
  return std::unique_ptr<TableReader>(new ParallelTableReader(*this, state_));
}

}  // namespace sluice
