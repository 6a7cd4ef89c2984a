#include "sluice/meta/consumer_manager.h"

#include <algorithm>

namespace sluice {

namespace {

Status ValidateConsumerId(std::string_view id) {
  if (id.empty()) return Status::InvalidArgument("consumer id cannot be empty");
  if (id.find('/') != std::string_view::npos || id.find('\0') != std::string_view::npos) {
    return Status::InvalidArgument("consumer id '" + std::string(id) +
                                   "' must not contain '/' or NUL: it names a file");
  }
  return Status::OK();
}

std::string_view BaseName(std::string_view path) {
  if (size_t slash = path.rfind('/'); slash != std::string_view::npos) {
    path.remove_prefix(slash + 1);
  }
  return path;
}

}  // namespace

ConsumerManager::ConsumerManager(std::shared_ptr<FileIO> io, std::string table_path,
                                 std::string_view branch)
    : io_(std::move(io)),
      table_path_(std::move(table_path)),
      branch_(NormalizeBranch(branch)),
      branch_path_(BranchPath(table_path_, branch_)) {}

Result<std::optional<Consumer>> ConsumerManager::LoadConsumer(std::string_view id) const {
  SLUICE_RETURN_NOT_OK(ValidateConsumerId(id));
  const std::string path = consumer_path(id);
  Result<std::string> content = io_->ReadFile(path);
  if (!content.ok()) {
    if (content.status().IsNotFound()) return std::optional<Consumer>();
    return content.status();
  }
  Result<Consumer> consumer = Consumer::FromJson(*content);
  if (!consumer.ok()) return consumer.status().WithContext(path);
  return std::optional<Consumer>(*consumer);
}

Status ConsumerManager::ResetConsumer(std::string_view id, const Consumer& consumer) const {
  SLUICE_RETURN_NOT_OK(ValidateConsumerId(id));
  SLUICE_RETURN_NOT_OK(io_->MkDirs(consumer_dir()));
  return io_->WriteFileAtomic(consumer_path(id), consumer.ToJson(), /*overwrite=*/true);
}

Status ConsumerManager::DeleteConsumer(std::string_view id) const {
  SLUICE_RETURN_NOT_OK(ValidateConsumerId(id));
  SLUICE_RETURN_NOT_OK(io_->Delete(consumer_path(id), /*recursive=*/false));
  return SyncConsumerDir();
}

Status ConsumerManager::SyncConsumerDir() const {
  // Until its directory is synced a deleted consumer can come back after a power loss and
  // hold snapshot expiry back.
  Status synced = io_->SyncDir(consumer_dir());
  return synced.IsNotFound() ? Status::OK() : synced;
}

Result<std::vector<std::string>> ConsumerManager::ListAllIds() const {
  Result<std::vector<FileStatus>> entries = io_->ListDir(consumer_dir());
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<std::string>{};
    return entries.status();
  }
  std::vector<std::string> ids;
  for (const FileStatus& entry : *entries) {
    if (entry.is_dir) continue;
    std::string_view name = BaseName(entry.path);
    if (name.substr(0, kConsumerPrefix.size()) != kConsumerPrefix) continue;
    if (name.size() == kConsumerPrefix.size()) continue;
    ids.emplace_back(name.substr(kConsumerPrefix.size()));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

Result<std::map<std::string, int64_t>> ConsumerManager::Consumers() const {
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> ids, ListAllIds());
  std::map<std::string, int64_t> out;
  for (const std::string& id : ids) {
    // A consumer deleted between the listing and the read is simply gone.
    SLUICE_ASSIGN_OR_RETURN(std::optional<Consumer> consumer, LoadConsumer(id));
    if (consumer) out[id] = consumer->next_snapshot;
  }
  return out;
}

Result<std::optional<int64_t>> ConsumerManager::MinNextSnapshot() const {
  SLUICE_ASSIGN_OR_RETURN(auto consumers, Consumers());
  std::optional<int64_t> min;
  for (const auto& [id, next] : consumers) {
    if (!min || next < *min) min = next;
  }
  return min;
}

Result<std::vector<std::string>> ConsumerManager::Expire(int64_t expire_before_millis) const {
  Result<std::vector<FileStatus>> entries = io_->ListDir(consumer_dir());
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<std::string>{};
    return entries.status();
  }
  std::vector<std::string> expired;
  for (const FileStatus& entry : *entries) {
    if (entry.is_dir) continue;
    std::string_view name = BaseName(entry.path);
    if (name.substr(0, kConsumerPrefix.size()) != kConsumerPrefix) continue;
    if (name.size() == kConsumerPrefix.size()) continue;
    // Listings need not carry modification times (local ones do not): ask the file.
    Result<FileStatus> status = io_->GetStatus(entry.path);
    if (!status.ok()) {
      if (status.status().IsNotFound()) continue;  // deleted meanwhile
      return status.status();
    }
    if (status->modification_time_ms >= expire_before_millis) continue;
    SLUICE_RETURN_NOT_OK(io_->Delete(entry.path, /*recursive=*/false));
    expired.emplace_back(name.substr(kConsumerPrefix.size()));
  }
  if (!expired.empty()) SLUICE_RETURN_NOT_OK(SyncConsumerDir());
  return expired;
}

}  // namespace sluice
