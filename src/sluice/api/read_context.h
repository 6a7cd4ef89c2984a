// ReadContext: one read request of a ReadBuilder, resolved (branch, dynamic options, read
// schema, output columns, filter, version): what its TableScan plans with and its TableRead
// reads with.
//
// Thread safety: immutable once resolved.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_read_options.h"

namespace sluice {

struct ReadContext {
  std::string name;                       // how errors name the table (and branch, version)
  std::shared_ptr<FileStoreTable> table;  // on the branch read, with the dynamic options
  std::shared_ptr<const TableSchema> read_schema;
  // The schema the splits of scan.fallback_table (FallbackTableOf) are read through; null
  // when the read has no fallback branch.
  std::shared_ptr<const TableSchema> fallback_read_schema;
  DataTypePtr output_type;
  ScanOptions scan;
  SplitReadOptions read_options;  // projection, filter, session zone, row kind
  std::optional<int64_t> limit;
  bool ordered = false;
  int threads = 0;  // 0: ThreadPool::DefaultThreads
  int max_buffered_batches = 16;
};

}  // namespace sluice
