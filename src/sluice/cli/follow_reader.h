// `sluice read --follow`: a streaming read (stream_table_scan.h) printed as it happens: the
// first plan, then each new snapshot's changes as they commit, `_ROW_KIND` first, until
// `limit` rows have printed or SIGINT / SIGTERM arrives.
//
// Progress: with `consumer-id` set on the read, each snapshot's rows are printed and flushed
// before the consumer records the next snapshot. A signal stops after the snapshot being
// printed (recorded: a clean stop); a limit that cuts a snapshot short leaves it unrecorded,
// as does a kill, so a restart with the same consumer id repeats at most that snapshot.
//
// Thread safety: run from main only (installs signal handlers).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sluice/read_builder.h"
#include "sluice/result.h"

namespace sluice::cli {

Status FollowTable(ReadBuilder read, const std::string& format, std::optional<int64_t> limit);

}  // namespace sluice::cli
