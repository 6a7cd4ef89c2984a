#include "sluice/read_plan.h"

#include "sluice/api/parallel_table_reader.h"
#include "sluice/api/read_plan_state.h"

namespace sluice {

std::optional<int64_t> ReadPlan::snapshot_id() const { return state_->snapshot_id; }

const std::vector<DataSplit>& ReadPlan::splits() const { return state_->splits; }

const DataTypePtr& ReadPlan::output_type() const { return state_->output_type; }

Result<std::unique_ptr<SplitReader>> ReadPlan::OpenSplit(size_t index) const {
  if (index >= state_->splits.size()) {
    return Status::InvalidArgument("split " + std::to_string(index) + " of a plan of " +
                                   std::to_string(state_->splits.size()));
  }
  return OpenSplitReader(*state_->table, state_->read_schema, state_->splits[index],
                         state_->read_options);
}

Result<std::unique_ptr<TableReader>> ReadPlan::NewReader() const {
  return std::unique_ptr<TableReader>(new ParallelTableReader(*this, state_));
}

}  // namespace sluice
