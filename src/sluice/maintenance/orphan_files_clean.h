// LocalOrphanFilesClean: deletes the files of a table that nothing refers to (Java
// OrphanFilesClean / LocalOrphanFilesClean, the remove_orphan_files procedure): files left by
// writes that failed or were killed before their commit, by expiries killed half-way, by
// rollbacks in Java.
//
// Candidates are the files, last modified before `older_than_millis`, in manifest/, index/,
// statistics/, the bucket folders (`<table>[/<data-file.path-directory>]/<k=v>/.../bucket-*`)
// and, on every branch, the files of snapshot/ and changelog/ that are not snapshots, changelogs
// or hints (temporary files of interrupted commits). A candidate is an orphan unless a
// snapshot, tag or long-lived changelog of any branch uses it (UsedFiles). Bucket and partition
// folders left empty are removed. The age bound is what keeps the files of commits in flight
// safe: keep it well above the longest commit (Java's default: a day).
//
// Thread safety: not thread-safe; the table is only read until the orphans are known.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct OrphanFiles {
  // Full paths, sorted.
  std::vector<std::string> files;
  int64_t bytes = 0;
};

class LocalOrphanFilesClean {
 public:
  // Java's default age bound: a day.
  static constexpr int64_t kDefaultOlderThanMillis = 24LL * 3600 * 1000;

  LocalOrphanFilesClean(std::shared_ptr<const FileStoreTable> table, int64_t older_than_millis,
                        bool dry_run)
      : table_(std::move(table)), older_than_millis_(older_than_millis), dry_run_(dry_run) {}

  // The orphans found (and, unless dry_run, deleted). The first deletion failure is returned
  // after trying the rest.
  Result<OrphanFiles> Clean();

 private:
  std::shared_ptr<const FileStoreTable> table_;
  int64_t older_than_millis_;
  bool dry_run_;
};

}  // namespace sluice
