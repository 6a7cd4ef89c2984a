// IntervalPartition: splits data files into sections whose key ranges do not overlap, and each
// section into the fewest sorted runs (Java mergetree.compact.IntervalPartition). A merge read
// or a compaction merges one section at a time.
//
// Thread safety: stateless functions.
#pragma once

#include <cstddef>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/lsm/sorted_run.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/result.h"

namespace sluice {

// Sections in key order; within a section the order of runs does not matter.
std::vector<std::vector<SortedRun>> PartitionIntervals(std::vector<LevelFilePtr> files,
                                                       const KeyValueMergeOrder& key_order);

// One sorted run as indexes into the partitioned file list, in key order.
using SortedRunFiles = std::vector<size_t>;

// The same over manifest records: `key_type` is the ROW of the trimmed primary key fields.
// Corruption naming the file when a min/max key does not decode.
Result<std::vector<std::vector<SortedRunFiles>>> IntervalPartition(
    const std::vector<DataFileMeta>& files, const DataType& key_type);

}  // namespace sluice
