// CheckDeletionVectorRows: the part of the table check that reads what deletion vectors delete
// (primary-key tables with `deletion-vectors.enabled`, the latest snapshot, files above level
// 0): every deleted position lies inside its data file, and per bucket each key has at most one
// row no vector deletes, which is then the key's newest record: every row a newer record
// replaced is deleted, and no vector deletes a newest record while an older one stays visible.
// (A key whose newest record was a delete has all its rows deleted, which the check accepts.)
//
// Thread safety: reentrant; the table is only read.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

// Calls `problem` once per finding (a line naming the data file and the index file); a table
// whose latest snapshot does not plan is one finding. `path_remap` as ScanOptions::path_remap
// (tables copied from elsewhere).
void CheckDeletionVectorRows(const FileStoreTable& table,
                             const std::vector<std::pair<std::string, std::string>>& path_remap,
                             const std::function<void(std::string)>& problem);

}  // namespace sluice
