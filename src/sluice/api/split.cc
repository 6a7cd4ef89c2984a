#include "sluice/split.h"

#include "sluice/api/api_access.h"
#include "sluice/api/byte_codec.h"

namespace sluice {

namespace {

constexpr std::string_view kMagic = "SLSP";

// Files with their paths and deletion files (the deletion list empty, or aligned with them).
Status PutFiles(const std::vector<DataFileMeta>& files, const std::vector<std::string>& paths,
                const std::vector<std::optional<DeletionFile>>& deletions, ByteWriter* out) {
  out->PutInt(static_cast<int64_t>(files.size()));
  for (const DataFileMeta& file : files) {
    Status st = out->PutDataFile(file);
    if (!st.ok()) return Status::Internal("split: " + st.message()).WithContext(file.file_name);
  }
  out->PutInt(static_cast<int64_t>(paths.size()));
  for (const std::string& path : paths) out->PutBytes(path);
  out->PutInt(static_cast<int64_t>(deletions.size()));
  for (const std::optional<DeletionFile>& file : deletions) {
    out->PutBool(file.has_value());
    if (!file) continue;
    out->PutBytes(file->path);
    out->PutInt(file->offset);
    out->PutInt(file->length);
    out->PutBool(file->cardinality.has_value());
    if (file->cardinality) out->PutInt(*file->cardinality);
  }
  return Status::OK();
}

Status ReadFiles(ByteReader* in, const std::string& what, std::vector<DataFileMeta>* files,
                 std::vector<std::string>* paths,
                 std::vector<std::optional<DeletionFile>>* deletions) {
  SLUICE_ASSIGN_OR_RETURN(size_t count, in->ReadCount(what));
  for (size_t i = 0; i < count; ++i) {
    SLUICE_ASSIGN_OR_RETURN(DataFileMeta file, in->ReadDataFile(what));
    files->push_back(std::move(file));
  }
  SLUICE_ASSIGN_OR_RETURN(size_t path_count, in->ReadCount(what + " paths"));
  for (size_t i = 0; i < path_count; ++i) {
    SLUICE_ASSIGN_OR_RETURN(std::string path, in->ReadBytes(what + " paths"));
    paths->push_back(std::move(path));
  }
  SLUICE_ASSIGN_OR_RETURN(size_t deletion_count, in->ReadCount(what + " deletion files"));
  for (size_t i = 0; i < deletion_count; ++i) {
    SLUICE_ASSIGN_OR_RETURN(bool present, in->ReadBool(what + " deletion files"));
    if (!present) {
      deletions->emplace_back();
      continue;
    }
    DeletionFile file;
    SLUICE_ASSIGN_OR_RETURN(file.path, in->ReadBytes(what + " deletion files.path"));
    SLUICE_ASSIGN_OR_RETURN(file.offset, in->ReadInt(what + " deletion files.offset"));
    SLUICE_ASSIGN_OR_RETURN(file.length, in->ReadInt(what + " deletion files.length"));
    SLUICE_ASSIGN_OR_RETURN(bool has_cardinality,
                            in->ReadBool(what + " deletion files.cardinality"));
    if (has_cardinality) {
      SLUICE_ASSIGN_OR_RETURN(file.cardinality, in->ReadInt(what + " deletion files.cardinality"));
    }
    deletions->push_back(std::move(file));
  }
  // The readers index these side by side with the files.
  if (paths->size() != files->size() ||
      (!deletions->empty() && deletions->size() != files->size())) {
    return Status::Corruption("split: " + std::to_string(files->size()) + " " + what + " but " +
                              std::to_string(paths->size()) + " paths and " +
                              std::to_string(deletions->size()) + " deletion files");
  }
  return Status::OK();
}

}  // namespace

int64_t Split::snapshot_id() const { return rep_->split.snapshot_id; }

const ValueList& Split::partition() const { return rep_->split.partition_values; }

int32_t Split::bucket() const { return rep_->split.bucket; }

int64_t Split::file_count() const { return static_cast<int64_t>(rep_->split.data_files.size()); }

int64_t Split::row_count() const { return rep_->split.RowCount(); }

bool Split::operator==(const Split& other) const {
  const DataSplit& a = rep_->split;
  const DataSplit& b = other.rep_->split;
  return a.snapshot_id == b.snapshot_id && a.partition == b.partition &&
         a.partition_values == b.partition_values && a.bucket == b.bucket &&
         a.total_buckets == b.total_buckets && a.bucket_path == b.bucket_path &&
         a.data_files == b.data_files && a.data_file_paths == b.data_file_paths &&
         a.deletion_files == b.deletion_files && a.raw_convertible == b.raw_convertible &&
         a.is_streaming == b.is_streaming && a.from_fallback_branch == b.from_fallback_branch &&
         a.is_diff == b.is_diff && a.before_files == b.before_files &&
         a.before_file_paths == b.before_file_paths &&
         a.before_deletion_files == b.before_deletion_files;
}

Result<std::string> Split::Serialize() const {
  const DataSplit& split = rep_->split;
  ByteWriter out(kMagic, kSerializationVersion);
  out.PutInt(split.snapshot_id);
  out.PutBytes(split.partition);
  out.PutInt(static_cast<int64_t>(split.partition_values.size()));
  for (const Value& value : split.partition_values) out.PutValue(value);
  out.PutInt(split.bucket);
  out.PutInt(split.total_buckets);
  out.PutBytes(split.bucket_path);
  SLUICE_RETURN_NOT_OK(
      PutFiles(split.data_files, split.data_file_paths, split.deletion_files, &out));
  out.PutBool(split.raw_convertible);
  out.PutBool(split.is_streaming);
  out.PutBool(split.from_fallback_branch);
  out.PutBool(split.is_diff);
  SLUICE_RETURN_NOT_OK(
      PutFiles(split.before_files, split.before_file_paths, split.before_deletion_files, &out));
  return std::move(out).Finish();
}

Result<Split> Split::Deserialize(std::string_view bytes) {
  ByteReader in(bytes, "split");
  SLUICE_RETURN_NOT_OK(in.ReadHeader(kMagic, kSerializationVersion));
  DataSplit split;
  SLUICE_ASSIGN_OR_RETURN(split.snapshot_id, in.ReadInt("snapshot_id"));
  SLUICE_ASSIGN_OR_RETURN(split.partition, in.ReadBytes("partition"));
  SLUICE_ASSIGN_OR_RETURN(size_t values, in.ReadCount("partition_values"));
  for (size_t i = 0; i < values; ++i) {
    SLUICE_ASSIGN_OR_RETURN(Value value, in.ReadValue("partition_values"));
    split.partition_values.push_back(std::move(value));
  }
  SLUICE_ASSIGN_OR_RETURN(split.bucket, in.ReadInt32("bucket"));
  SLUICE_ASSIGN_OR_RETURN(split.total_buckets, in.ReadInt32("total_buckets"));
  SLUICE_ASSIGN_OR_RETURN(split.bucket_path, in.ReadBytes("bucket_path"));
  SLUICE_RETURN_NOT_OK(ReadFiles(&in, "data_files", &split.data_files, &split.data_file_paths,
                                 &split.deletion_files));
  SLUICE_ASSIGN_OR_RETURN(split.raw_convertible, in.ReadBool("raw_convertible"));
  SLUICE_ASSIGN_OR_RETURN(split.is_streaming, in.ReadBool("is_streaming"));
  SLUICE_ASSIGN_OR_RETURN(split.from_fallback_branch, in.ReadBool("from_fallback_branch"));
  SLUICE_ASSIGN_OR_RETURN(split.is_diff, in.ReadBool("is_diff"));
  SLUICE_RETURN_NOT_OK(ReadFiles(&in, "before_files", &split.before_files, &split.before_file_paths,
                                 &split.before_deletion_files));
  SLUICE_RETURN_NOT_OK(in.ExpectEnd());
  return ApiAccess::MakeSplit(std::move(split));
}

}  // namespace sluice
