// BranchManager: the branches of a table (Java FileSystemBranchManager). Each branch other
// than main is a directory `branch/branch-<name>/` holding its own schema/, snapshot/, tag/
// ... directories; data files and manifests stay shared under the table root.
//
// Creating a branch copies, as Java does, the schemas (and, from a tag or snapshot, the tag and
// snapshot files) of the branch it starts from. Unlike Java, which copies into the final
// directory file by file, the copies are made in a hidden staging directory
// `branch/.branch-<name>.<uuid>.tmp` and renamed into place in one step, so a crash leaves
// either no branch or the whole branch (the staging directory left behind is skipped by
// ListBranches, and is an orphan). Dropping a branch first renames its directory to a hidden name,
// then deletes it, for the same reason.
//
// Fast-forward (Java fastForward) replaces the snapshots, schemas and tags of a branch from the
// fork point on with those of another branch. It deletes newest first and copies oldest first,
// with schemas before the snapshots that use them, so a crash in the middle leaves a table
// whose snapshots are a prefix of the old or the new history, each readable.
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

class BranchManager {
 public:
  BranchManager(std::shared_ptr<FileIO> io, std::string table_path);

  // Names of the branches other than main, sorted; empty when there is no branch/ directory.
  Result<std::vector<std::string>> ListBranches() const;
  // True for "main" and for every branch directory that exists.
  Result<bool> BranchExists(std::string_view branch) const;
  // Java BranchManager.validateBranch: InvalidArgument for "main", a blank name or a name of
  // digits only (it would read as a snapshot id); also for a name holding '/' or '$'.
  static Status ValidateBranchName(std::string_view name);

  // A branch holding the schemas of `from_branch` up to its latest and no snapshot (Java
  // createBranch(name)). AlreadyExists naming the branch unless `ignore_if_exists`; NotFound
  // when `from_branch` has no schema.
  Status CreateBranch(std::string_view name, std::string_view from_branch,
                      bool ignore_if_exists = false) const;
  // A branch starting at tag `tag` of `from_branch` (Java createBranch(name, tag)): the tag
  // file, the tagged snapshot (from the snapshot file, or from the tag when the snapshot
  // expired) and the schemas up to the snapshot's. NotFound naming the tag.
  Status CreateBranchFromTag(std::string_view name, std::string_view from_branch,
                             std::string_view tag, bool ignore_if_exists = false) const;
  // A branch starting at snapshot `snapshot_id` of `from_branch` (no Java equivalent: like a
  // tag without the tag file). NotFound naming the snapshot.
  Status CreateBranchFromSnapshot(std::string_view name, std::string_view from_branch,
                                  int64_t snapshot_id, bool ignore_if_exists = false) const;
  // NotFound naming the branch when it does not exist; InvalidArgument for main.
  Status DropBranch(std::string_view name) const;
  // Java renameBranch: InvalidArgument for main, NotFound when `from` does not exist,
  // AlreadyExists when `to` does.
  Status RenameBranch(std::string_view from, std::string_view to) const;
  // Makes `into_branch` (usually main) what `branch` is (Java fastForward): snapshots, schemas
  // and tags of `into_branch` from `branch`'s earliest snapshot (and its schema) on are replaced
  // by `branch`'s. InvalidArgument when the two are the same or `branch` is main; NotFound
  // when `branch` does not exist; InvalidArgument when it has no snapshot.
  Status FastForward(std::string_view branch, std::string_view into_branch) const;

 private:
  // Creates the staging directory, lets `fill` write into it (as a branch path), then renames
  // it to the branch's directory.
  Status CreateStaged(std::string_view name, bool ignore_if_exists,
                      const std::function<Status(const std::string& staged)>& fill) const;

  std::shared_ptr<FileIO> io_;
  std::string table_path_;
};

// Copies the file `from` to `to` (created, or replaced when `overwrite`), durably: the copy is
// closed (synced) and its directory synced. NotFound naming `from` when it does not exist.
Status CopyFileDurably(FileIO& io, const std::string& from, const std::string& to, bool overwrite);

}  // namespace sluice
