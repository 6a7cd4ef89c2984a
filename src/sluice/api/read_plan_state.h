// ReadPlan::State: what a planned read shares with the split readers it opens (the public
// ReadPlan keeps it opaque).
//
// Thread safety: immutable once planned.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/read_plan.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/split_read_options.h"

namespace sluice {

struct ReadPlan::State {
  std::shared_ptr<FileStoreTable> table;  // on the branch read, with the dynamic options
  std::shared_ptr<const TableSchema> read_schema;
  std::optional<int64_t> snapshot_id;
  std::vector<DataSplit> splits;
  DataTypePtr output_type;
  SplitReadOptions read_options;  // projection, filter, session zone, row kind
  std::optional<int64_t> limit;
  bool ordered = false;
  int threads = 0;  // 0: ThreadPool::DefaultThreads
  int max_buffered_batches = 16;
};

}  // namespace sluice
