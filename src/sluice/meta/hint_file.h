// EARLIEST / LATEST hint files of a snapshot (or changelog) directory, and Java's way of finding
// the earliest and latest versioned file from them (HintFileUtils, FileUtils.listVersionedFiles).
//
// A hint holds a decimal id with no newline. Hints may be missing or stale at any time:
//   latest   = the LATEST hint h when h > 0 and `<prefix>(h+1)` does not exist; otherwise the
//              largest id among the `<prefix><id>` files of the directory.
//   earliest = the EARLIEST hint h when `<prefix>h` exists; otherwise the smallest listed id.
// An unreadable or unparsable hint counts as missing (read up to 3 times, 1 ms apart, as Java).
//
// Thread safety: functions are as thread-safe as the FileIO passed in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

// The id in hint file `<dir>/<name>`, or nullopt when it is missing or not a number.
std::optional<int64_t> ReadHint(FileIO* io, std::string_view dir, std::string_view name);

// Overwrites hint file `<dir>/<name>` with `id` (atomically: temporary file + rename).
Status WriteHint(FileIO* io, std::string_view dir, std::string_view name, int64_t id);

// The ids of the `<prefix><id>` entries of `dir`, ascending; empty when `dir` does not exist.
// Names whose suffix is not a number are skipped.
Result<std::vector<int64_t>> ListVersionedIds(FileIO* io, std::string_view dir,
                                              std::string_view prefix);

// Latest / earliest id as described above; nullopt when there is none.
Result<std::optional<int64_t>> FindLatestId(FileIO* io, std::string_view dir,
                                            std::string_view prefix);
Result<std::optional<int64_t>> FindEarliestId(FileIO* io, std::string_view dir,
                                              std::string_view prefix);

}  // namespace sluice
