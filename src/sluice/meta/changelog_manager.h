// ChangelogManager: the long-lived changelogs of one branch (Java ChangelogManager). When the
// changelog outlives its snapshot (ExpireConfig::changelog_decoupled), snapshot expiry writes
// the expired snapshot's JSON to `changelog/changelog-<id>` before deleting
// `snapshot/snapshot-<id>`; the file keeps the snapshot's manifest lists, so its changelog (or,
// without a changelog producer, its delta files) stays readable. A streaming reader that is
// behind the earliest snapshot reads snapshot <id> from here while the file exists
// (LoadChangelog), exactly as from the snapshot directory. The directory has LATEST / EARLIEST
// hints like snapshot/ (hint_file.h).
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/snapshot.h"
#include "sluice/result.h"

namespace sluice {

class ChangelogManager {
 public:
  ChangelogManager(std::shared_ptr<FileIO> io, std::string table_path,
                   std::string_view branch = kMainBranch);

  std::string changelog_dir() const { return ChangelogDir(branch_path_); }
  std::string changelog_path(int64_t id) const { return ChangelogPath(branch_path_, id); }

  // nullopt when there is no long-lived changelog.
  Result<std::optional<int64_t>> LatestLongLivedChangelogId() const;
  Result<std::optional<int64_t>> EarliestLongLivedChangelogId() const;
  Result<bool> LongLivedChangelogExists(int64_t id) const;
  // NotFound "changelog <id> does not exist: <path>"; Corruption naming the path and field.
  Result<Snapshot> LoadChangelog(int64_t id) const;
  // Ids of all changelog files, ascending.
  Result<std::vector<int64_t>> ListChangelogIds() const;

  // Writes changelog-<id> (replacing a file a crashed expiry left) durably.
  Status CommitChangelog(const Snapshot& changelog) const;
  Status CommitLatestHint(int64_t id) const;
  Status CommitEarliestHint(int64_t id) const;
  // Deletes changelog-<id> (a missing file is OK); the directory entry is synced by the caller.
  Status DeleteChangelog(int64_t id) const;
  // Deletes both hints (every long-lived changelog is gone).
  Status DeleteHints() const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string branch_path_;
};

}  // namespace sluice
