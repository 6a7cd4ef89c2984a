// ReadPlan: the splits one read covers (one per partition and bucket, see DataSplit) and how to
// read them. Engines may hand splits to their own workers (OpenSplit) or let NewReader read all
// of them on a thread pool.
//
// Thread safety: immutable; OpenSplit and NewReader may be called concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/table_reader.h"
#include "sluice/types/data_type.h"

namespace sluice {

class ReadPlan {
 public:
  // Everything a plan shares with the readers it opens.
  struct State;

  explicit ReadPlan(std::shared_ptr<const State> state) : state_(std::move(state)) {}

  // The snapshot read; nullopt for a table without snapshots (the plan is then empty).
  std::optional<int64_t> snapshot_id() const;
  const std::vector<DataSplit>& splits() const;
  // The ROW type of every batch: the projected columns, after `_ROW_KIND` in delta mode.
  const DataTypePtr& output_type() const;

  // Reads split `index` of splits() alone (no limit applied).
  Result<std::unique_ptr<SplitReader>> OpenSplit(size_t index) const;

  // Reads every split on a thread pool with bounded buffering, applying the limit.
  Result<std::unique_ptr<TableReader>> NewReader() const;

 private:
  std::shared_ptr<const State> state_;
};

}  // namespace sluice
