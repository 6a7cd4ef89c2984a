#include "sluice/meta/hint_file.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "sluice/meta/file_paths.h"

namespace sluice {

namespace {

constexpr int kReadHintAttempts = 3;

std::string VersionedPath(std::string_view dir, std::string_view prefix, int64_t id) {
  return JoinPath(dir, std::string(prefix) + std::to_string(id));
}

}  // namespace

std::optional<int64_t> ReadHint(FileIO* io, std::string_view dir, std::string_view name) {
  const std::string path = JoinPath(dir, name);
  for (int attempt = 0; attempt < kReadHintAttempts; ++attempt) {
    Result<std::string> content = io->ReadFile(path);
    if (!content.ok() && content.status().IsNotFound()) return std::nullopt;
    if (content.ok()) {
      std::optional<int64_t> id = ParseHintContent(*content);
      if (id) return id;
    }
    // A concurrent overwrite may be under way: retry shortly, as Java does.
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::nullopt;
}

Status WriteHint(FileIO* io, std::string_view dir, std::string_view name, int64_t id) {
  return io->WriteFileAtomic(JoinPath(dir, name), std::to_string(id), /*overwrite=*/true);
}

Result<std::vector<int64_t>> ListVersionedIds(FileIO* io, std::string_view dir,
                                              std::string_view prefix) {
  Result<std::vector<FileStatus>> entries = io->ListDir(std::string(dir));
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<int64_t>{};
    return entries.status();
  }
  std::vector<int64_t> ids;
  for (const FileStatus& entry : *entries) {
    std::string_view name = entry.path;
    if (size_t slash = name.rfind('/'); slash != std::string_view::npos) {
      name.remove_prefix(slash + 1);
    }
    if (std::optional<int64_t> id = ParseVersionedFileName(name, prefix); id) ids.push_back(*id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

Result<std::optional<int64_t>> FindLatestId(FileIO* io, std::string_view dir,
                                            std::string_view prefix) {
  std::optional<int64_t> hint = ReadHint(io, dir, kLatestHint);
  if (hint && *hint > 0 && *hint < INT64_MAX) {
    SLUICE_ASSIGN_OR_RETURN(bool next_exists, io->Exists(VersionedPath(dir, prefix, *hint + 1)));
    if (!next_exists) return hint;
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, ListVersionedIds(io, dir, prefix));
  if (ids.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(ids.back());
}

Result<std::optional<int64_t>> FindEarliestId(FileIO* io, std::string_view dir,
                                              std::string_view prefix) {
  std::optional<int64_t> hint = ReadHint(io, dir, kEarliestHint);
  if (hint) {
    SLUICE_ASSIGN_OR_RETURN(bool exists, io->Exists(VersionedPath(dir, prefix, *hint)));
    if (exists) return hint;
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, ListVersionedIds(io, dir, prefix));
  if (ids.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(ids.front());
}

}  // namespace sluice
