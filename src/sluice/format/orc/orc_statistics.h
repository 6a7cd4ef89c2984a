// Conversions between ORC column statistics and Sluice's ColumnStats (the form predicates
// prune with and Paimon's DataFileMeta records).
//
// Thread safety: stateless functions.
#pragma once

#include <cstdint>

#include "sluice/data_type.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/types/column_stats.h"

namespace sluice::orc {

// `stats` of a column of ORC type `orc` read as `read_type`, over `rows` rows of its parent.
// Min / max are dropped where they cannot be trusted (strings before writer version 1,
// timestamps before ORC-135, NaN doubles, types without an order).
ColumnStats ToColumnStats(const OrcColumnStatistics& stats, const OrcType& orc,
                          const DataType& read_type, int64_t rows, uint32_t writer_version);

// Parses ORC's decimal statistics text ("-12.5") into an unscaled value at `scale`.
bool ParseDecimalText(std::string_view text, int scale, int128_t* out);

}  // namespace sluice::orc
