// The upsert workload of bench/run.sh upsert (issue 6), shared by the benchmarks that run it:
// N upserts of (k BIGINT key, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING of 8-24 characters,
// v5 DOUBLE); half of them update a key written earlier, keys in random order (a bijective mix
// of a counter), from a fixed seed.
#pragma once

#include <memory>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/data_type.h"

namespace sluice::bench {

std::vector<DataField> UpsertFields();
// The workload in batches of kBatchRows rows; *distinct_keys: how many keys it writes.
std::vector<std::unique_ptr<ColumnBatch>> MakeUpsertWorkload(int64_t rows, const DataTypePtr& type,
                                                             int64_t* distinct_keys);

}  // namespace sluice::bench
