#include "sluice/cdc/sync_progress_file.h"

namespace sluice {

namespace {

// A commit user in a file name: characters other than [A-Za-z0-9._-] become '_'.
std::string FileNamePart(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '-';
    if (!plain) c = '_';
  }
  return out;
}

}  // namespace

SyncProgressFile::SyncProgressFile(std::shared_ptr<FileIO> io, std::string database_path,
                                   std::string_view commit_user)
    : io_(std::move(io)),
      path_(JoinPath(database_path, ".sluice-sync-" + FileNamePart(commit_user) + ".json")) {}

Result<std::optional<SourceOffsets>> SyncProgressFile::Load() const {
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(path_));
  if (!exists) return std::optional<SourceOffsets>();
  SLUICE_ASSIGN_OR_RETURN(std::string text, io_->ReadFile(path_));
  auto offsets = SourceOffsets::FromJson(text);
  if (!offsets.ok()) return offsets.status().WithContext("sync progress file " + path_);
  return std::optional<SourceOffsets>(std::move(*offsets));
}

Status SyncProgressFile::Store(const SourceOffsets& offsets) const {
  return io_->WriteFileAtomic(path_, offsets.ToJson(), /*overwrite=*/true)
      .WithContext("sync progress file " + path_);
}

}  // namespace sluice
