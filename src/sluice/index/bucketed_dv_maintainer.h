// BucketedDvMaintainer: the deletion vectors of one bucket of a primary-key table while it is
// written (Java deletionvectors.BucketedDvMaintainer): restored from the bucket's live
// deletion-vector index file, told of new deletions (a compaction's lookup found the older
// record of a key it rewrote) and of vectors that go with their data file (a compaction
// rewrote the file), and written out as one new index file of the whole bucket when changed
// (Java DeletionVectorsIndexFile.writeSingleFile), which replaces the live one.
//
// Vectors are written in data-file-name order; the index file's row count is the number of
// vectors. When every vector is gone the live file is deleted and none is written.
//
// Thread safety: not thread-safe; used by one compaction at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/index/deletion_vector.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/result.h"

namespace sluice {

inline constexpr const char* kDeletionVectorsIndexType = "DELETION_VECTORS";

class BucketedDvMaintainer {
 public:
  // Where an index file of the bucket lies (external path or under the table).
  using PathOf = std::function<Result<std::string>(const IndexManifestEntry& entry)>;
  // A new index file name for the bucket.
  using NewFileName = std::function<std::string()>;

  // What one write of the index changed: the new file (if any vector is left) and the live file
  // it replaces (if there was one).
  struct IndexChange {
    std::optional<IndexManifestEntry> new_file;
    std::string new_file_path;  // where new_file was written
    std::optional<IndexManifestEntry> deleted_file;
  };

  // `restored`: the bucket's live deletion-vector index file (partition and bucket set), whose
  // vectors are read; `keep`: only vectors of these data files are kept (the bucket's live
  // files). Errors name the index file.
  static Result<std::unique_ptr<BucketedDvMaintainer>> Make(
      std::shared_ptr<FileIO> io, PathOf path_of, NewFileName new_file_name, bool bitmap64,
      std::string partition, int32_t bucket, std::optional<IndexManifestEntry> restored,
      const std::vector<std::string>& keep);

  // Marks row `position` of `data_file` deleted. InvalidArgument for a position the vector
  // variant cannot hold.
  Status NotifyNewDeletion(const std::string& data_file, int64_t position);
  // Forgets the vector of `data_file` (rewritten by a compaction).
  void RemoveDeletionVectorOf(const std::string& data_file);

  // The vector of `data_file`, or null.
  const DeletionVector* DeletionVectorOf(const std::string& data_file) const;
  bool modified() const { return modified_; }
  const std::map<std::string, DeletionVector>& deletion_vectors() const { return vectors_; }

  // When modified since the last write: writes the new index file (closed, so durable) and
  // returns it with the file it replaces, which becomes / stops being the live one.
  Result<std::optional<IndexChange>> WriteDeletionVectorsIndex();

 private:
  BucketedDvMaintainer(std::shared_ptr<FileIO> io, PathOf path_of, NewFileName new_file_name,
                       bool bitmap64, std::string partition, int32_t bucket,
                       std::optional<IndexManifestEntry> live)
      : io_(std::move(io)),
        path_of_(std::move(path_of)),
        new_file_name_(std::move(new_file_name)),
        bitmap64_(bitmap64),
        partition_(std::move(partition)),
        bucket_(bucket),
        live_(std::move(live)) {}

  std::shared_ptr<FileIO> io_;
  PathOf path_of_;
  NewFileName new_file_name_;
  bool bitmap64_;
  std::string partition_;
  int32_t bucket_;
  std::optional<IndexManifestEntry> live_;
  std::map<std::string, DeletionVector> vectors_;
  bool modified_ = false;
};

}  // namespace sluice
