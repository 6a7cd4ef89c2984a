// CatalogLock: a catalog's lock of one table (Java CatalogLock, Lock.fromCatalog), which commits
// hold while they create the next snapshot file, as Java's RenamingSnapshotCommit does. A
// catalog whose tables are shared through a metastore (the JDBC catalog with `lock.enabled`)
// sets it on the tables it loads (FileStoreTable::WithCatalogLock), so that its commits and
// those of Java's catalog on the same metastore exclude each other: Java's commit on a local or
// object-store file system checks that the snapshot file is absent and then renames onto it,
// which two committers racing without the lock can both pass.
//
// Thread safety: implementations are thread-safe.
#pragma once

#include <functional>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

class CatalogLock {
 public:
  virtual ~CatalogLock() = default;

  // Runs `fn` holding the lock of `database`.`object_name` (Java's lock of an Identifier: the
  // table's name, `table$branch_<name>` for a branch) and returns what `fn` returns. An error
  // naming the lock when it cannot be acquired within the catalog's acquire timeout; `fn` has
  // not run then.
  virtual Status RunWithLock(std::string_view database, std::string_view object_name,
                             const std::function<Status()>& fn) const = 0;
};

}  // namespace sluice
