// The pieces every split reader (raw, merge, delta, data evolution) and the key-value file reader
// share: the checks of a split against its read options, the session time zone, the live row
// positions of a file with deletion vectors and the columns a row filter needs decoded.
//
// Thread safety: stateless functions, thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/predicate/predicate.h"
#include "sluice/result.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/split_read_options.h"
#include "sluice/types/time_zone.h"

namespace sluice {

// InvalidArgument when the split's paths do not match its data files one for one, or when
// options.deleted_positions is given but not for every data file.
Status CheckSplitFiles(const DataSplit& split, const SplitReadOptions& options);

// InvalidArgument when options.batch_size is not positive.
Status CheckBatchSize(const SplitReadOptions& options);

// The zone named by options.session_time_zone, or null when none is named.
Result<std::shared_ptr<const TimeZone>> LoadSessionZone(const SplitReadOptions& options);

// Positions [0, row_count) not in the sorted `deleted`.
std::vector<int64_t> LivePositions(int64_t row_count, const std::vector<int64_t>& deleted);

// Sets needed[i] for every field `filter` references (nothing when it is null); needed.size() is
// the number of fields of the row it filters. InvalidArgument naming a field out of range.
Status MarkFilterFields(const PredicatePtr& filter, std::vector<bool>* needed);

}  // namespace sluice
