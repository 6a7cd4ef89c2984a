// RestCommitFileIO: the FileIO of a table loaded through a REST catalog, which sends the table's
// commits to the server (Java's RESTCatalog commits through CatalogSnapshotCommit, as the API's
// commit endpoint has it) instead of creating the snapshot file itself.
//
// A commit creates `snapshot/snapshot-<id>` (or a branch's) exclusively, WriteFileAtomic without
// overwrite (table/sink/file_store_commit.h); that one call goes to `commit` with the branch and
// the snapshot's JSON: a landed commit is OK, a taken id is AlreadyExists (the committer's lost
// race: it retries with the next id), the server's refusal its error (NotFound for a table
// dropped, or dropped and created again, since it was loaded). Everything else, the hints the
// committer writes after the snapshot included, goes to the wrapped FileIO.
//
// Thread safety: thread-safe when the wrapped FileIO and `commit` are.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sluice/fs/forwarding_file_io.h"

namespace sluice::rest {

class RestCommitFileIO final : public ForwardingFileIO {
 public:
  // Returns whether the snapshot landed (false: its id is taken).
  using Commit = std::function<Result<bool>(const std::string& branch, std::string_view json)>;

  RestCommitFileIO(std::shared_ptr<FileIO> base, std::string table_path, Commit commit);

  // The branch whose snapshot file `path` is (main or a branch of the table), or nullopt.
  std::optional<std::string> SnapshotBranch(std::string_view path) const;

  Status WriteFileAtomic(const std::string& path, std::string_view content,
                         bool overwrite) override;

 private:
  std::string table_path_;
  Commit commit_;
};

}  // namespace sluice::rest
