#include "sluice/commit_message.h"

#include "sluice/api/api_access.h"
#include "sluice/api/byte_codec.h"

namespace sluice {

namespace {

constexpr std::string_view kMagic = "SLCM";

Status PutFiles(const std::vector<DataFileMeta>& files, ByteWriter* out) {
  out->PutInt(static_cast<int64_t>(files.size()));
  for (const DataFileMeta& file : files) {
    Status st = out->PutDataFile(file);
    if (!st.ok()) {
      return Status::Internal("commit message: " + st.message()).WithContext(file.file_name);
    }
  }
  return Status::OK();
}

Status PutIndexFiles(const std::vector<IndexManifestEntry>& files, ByteWriter* out) {
  out->PutInt(static_cast<int64_t>(files.size()));
  for (const IndexManifestEntry& file : files) {
    Status st = out->PutIndexFile(file);
    if (!st.ok()) {
      return Status::Internal("commit message: " + st.message()).WithContext(file.file_name);
    }
  }
  return Status::OK();
}

Result<std::vector<DataFileMeta>> ReadFiles(ByteReader* in, std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(size_t n, in->ReadCount(field));
  std::vector<DataFileMeta> files;
  for (size_t i = 0; i < n; ++i) {
    SLUICE_ASSIGN_OR_RETURN(DataFileMeta file, in->ReadDataFile(field));
    files.push_back(std::move(file));
  }
  return files;
}

Result<std::vector<IndexManifestEntry>> ReadIndexFiles(ByteReader* in, std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(size_t n, in->ReadCount(field));
  std::vector<IndexManifestEntry> files;
  for (size_t i = 0; i < n; ++i) {
    SLUICE_ASSIGN_OR_RETURN(IndexManifestEntry file, in->ReadIndexFile(field));
    files.push_back(std::move(file));
  }
  return files;
}

}  // namespace

int32_t CommitMessage::bucket() const { return rep_->message.bucket; }

int64_t CommitMessage::new_file_count() const {
  return static_cast<int64_t>(rep_->message.data.new_files.size() +
                              rep_->message.compact.compact_after.size());
}

int64_t CommitMessage::compact_before_count() const {
  return static_cast<int64_t>(rep_->message.compact.compact_before.size());
}

int64_t CommitMessage::compact_after_count() const {
  return static_cast<int64_t>(rep_->message.compact.compact_after.size());
}

bool CommitMessage::empty() const { return rep_->message.empty(); }

bool CommitMessage::operator==(const CommitMessage& other) const {
  const CommitMessageImpl& a = rep_->message;
  const CommitMessageImpl& b = other.rep_->message;
  return a.partition == b.partition && a.bucket == b.bucket && a.total_buckets == b.total_buckets &&
         a.data.new_files == b.data.new_files && a.data.deleted_files == b.data.deleted_files &&
         a.data.changelog_files == b.data.changelog_files &&
         a.data.new_index_files == b.data.new_index_files &&
         a.data.deleted_index_files == b.data.deleted_index_files &&
         a.compact.compact_before == b.compact.compact_before &&
         a.compact.compact_after == b.compact.compact_after &&
         a.compact.changelog_files == b.compact.changelog_files &&
         a.compact.new_index_files == b.compact.new_index_files &&
         a.compact.deleted_index_files == b.compact.deleted_index_files;
}

Result<std::string> CommitMessage::Serialize() const {
  const CommitMessageImpl& m = rep_->message;
  ByteWriter out(kMagic, kSerializationVersion);
  out.PutBytes(m.partition);
  out.PutInt(m.bucket);
  out.PutInt(m.total_buckets);
  SLUICE_RETURN_NOT_OK(PutFiles(m.data.new_files, &out));
  SLUICE_RETURN_NOT_OK(PutFiles(m.data.deleted_files, &out));
  SLUICE_RETURN_NOT_OK(PutFiles(m.data.changelog_files, &out));
  SLUICE_RETURN_NOT_OK(PutIndexFiles(m.data.new_index_files, &out));
  SLUICE_RETURN_NOT_OK(PutIndexFiles(m.data.deleted_index_files, &out));
  SLUICE_RETURN_NOT_OK(PutFiles(m.compact.compact_before, &out));
  SLUICE_RETURN_NOT_OK(PutFiles(m.compact.compact_after, &out));
  SLUICE_RETURN_NOT_OK(PutFiles(m.compact.changelog_files, &out));
  SLUICE_RETURN_NOT_OK(PutIndexFiles(m.compact.new_index_files, &out));
  SLUICE_RETURN_NOT_OK(PutIndexFiles(m.compact.deleted_index_files, &out));
  return std::move(out).Finish();
}

Result<CommitMessage> CommitMessage::Deserialize(std::string_view bytes) {
  ByteReader in(bytes, "commit message");
  SLUICE_RETURN_NOT_OK(in.ReadHeader(kMagic, kSerializationVersion));
  CommitMessageImpl m;
  SLUICE_ASSIGN_OR_RETURN(m.partition, in.ReadBytes("partition"));
  SLUICE_ASSIGN_OR_RETURN(m.bucket, in.ReadInt32("bucket"));
  SLUICE_ASSIGN_OR_RETURN(m.total_buckets, in.ReadInt32("total_buckets"));
  SLUICE_ASSIGN_OR_RETURN(m.data.new_files, ReadFiles(&in, "data.new_files"));
  SLUICE_ASSIGN_OR_RETURN(m.data.deleted_files, ReadFiles(&in, "data.deleted_files"));
  SLUICE_ASSIGN_OR_RETURN(m.data.changelog_files, ReadFiles(&in, "data.changelog_files"));
  SLUICE_ASSIGN_OR_RETURN(m.data.new_index_files, ReadIndexFiles(&in, "data.new_index_files"));
  SLUICE_ASSIGN_OR_RETURN(m.data.deleted_index_files,
                          ReadIndexFiles(&in, "data.deleted_index_files"));
  SLUICE_ASSIGN_OR_RETURN(m.compact.compact_before, ReadFiles(&in, "compact.compact_before"));
  SLUICE_ASSIGN_OR_RETURN(m.compact.compact_after, ReadFiles(&in, "compact.compact_after"));
  SLUICE_ASSIGN_OR_RETURN(m.compact.changelog_files, ReadFiles(&in, "compact.changelog_files"));
  SLUICE_ASSIGN_OR_RETURN(m.compact.new_index_files,
                          ReadIndexFiles(&in, "compact.new_index_files"));
  SLUICE_ASSIGN_OR_RETURN(m.compact.deleted_index_files,
                          ReadIndexFiles(&in, "compact.deleted_index_files"));
  SLUICE_RETURN_NOT_OK(in.ExpectEnd());
  return ApiAccess::MakeCommitMessage(std::move(m));
}

}  // namespace sluice
