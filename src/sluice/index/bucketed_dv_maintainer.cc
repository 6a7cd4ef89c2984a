#include "sluice/index/bucketed_dv_maintainer.h"

#include <set>

#include "sluice/index/deletion_vector_index_file.h"
#include "sluice/index/deletion_vector_reader.h"

namespace sluice {

Result<std::unique_ptr<BucketedDvMaintainer>> BucketedDvMaintainer::Make(
    std::shared_ptr<FileIO> io, PathOf path_of, NewFileName new_file_name, bool bitmap64,
    std::string partition, int32_t bucket, std::optional<IndexManifestEntry> restored,
    const std::vector<std::string>& keep) {
  std::unique_ptr<BucketedDvMaintainer> maintainer(
      new BucketedDvMaintainer(std::move(io), std::move(path_of), std::move(new_file_name),
                               bitmap64, std::move(partition), bucket, restored));
  if (!restored || !restored->deletion_vectors) return maintainer;
  const std::set<std::string> live_files(keep.begin(), keep.end());
  SLUICE_ASSIGN_OR_RETURN(std::string path, maintainer->path_of_(*restored));
  for (const DeletionVectorMeta& meta : *restored->deletion_vectors) {
    if (live_files.count(meta.data_file_name) == 0) {
      // A vector of a file no longer live: the next index written leaves it out.
      maintainer->modified_ = true;
      continue;
    }
    DeletionFile file{path, meta.offset, meta.length, meta.cardinality};
    SLUICE_ASSIGN_OR_RETURN(DeletionVector dv, ReadDeletionVector(*maintainer->io_, file));
    maintainer->vectors_.emplace(meta.data_file_name, std::move(dv));
  }
  return maintainer;
}

Status BucketedDvMaintainer::NotifyNewDeletion(const std::string& data_file, int64_t position) {
  auto it = vectors_.find(data_file);
  if (it == vectors_.end()) {
    it = vectors_
             .emplace(data_file, DeletionVector(bitmap64_ ? DeletionVector::Kind::kBitmap64
                                                          : DeletionVector::Kind::kBitmap32))
             .first;
  }
  if (it->second.IsDeleted(position)) return Status::OK();
  SLUICE_RETURN_NOT_OK(it->second.Delete(position));
  modified_ = true;
  return Status::OK();
}

void BucketedDvMaintainer::RemoveDeletionVectorOf(const std::string& data_file) {
  if (vectors_.erase(data_file) > 0) modified_ = true;
}

const DeletionVector* BucketedDvMaintainer::DeletionVectorOf(const std::string& data_file) const {
  auto it = vectors_.find(data_file);
  return it == vectors_.end() ? nullptr : &it->second;
}

Result<std::optional<BucketedDvMaintainer::IndexChange>>
BucketedDvMaintainer::WriteDeletionVectorsIndex() {
  if (!modified_) return std::optional<IndexChange>();
  IndexChange change;
  change.deleted_file = live_;
  std::vector<std::pair<std::string, DeletionVector*>> vectors;
  for (auto& [file, dv] : vectors_) {
    if (!dv.IsEmpty()) vectors.emplace_back(file, &dv);
  }
  if (!vectors.empty()) {
    SLUICE_ASSIGN_OR_RETURN(DeletionVectorIndexFile content, BuildDeletionVectorIndexFile(vectors));
    IndexManifestEntry entry;
    entry.kind = FileKind::kAdd;
    entry.partition = partition_;
    entry.bucket = bucket_;
    entry.index_type = kDeletionVectorsIndexType;
    entry.file_name = new_file_name_();
    entry.file_size = static_cast<int64_t>(content.content.size());
    entry.row_count = static_cast<int64_t>(content.ranges.size());
    entry.deletion_vectors = std::move(content.ranges);
    SLUICE_ASSIGN_OR_RETURN(std::string path, path_of_(entry));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> out,
                            io_->OpenForWrite(path, /*overwrite=*/false));
    SLUICE_RETURN_NOT_OK(out->Append(content.content));
    SLUICE_RETURN_NOT_OK(out->Close());
    change.new_file = entry;
    change.new_file_path = std::move(path);
  }
  live_ = change.new_file;
  modified_ = false;
  return std::optional<IndexChange>(std::move(change));
}

}  // namespace sluice
