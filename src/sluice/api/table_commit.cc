#include "sluice/table_commit.h"

#include "sluice/api/api_access.h"
#include "sluice/maintenance/commit_maintenance.h"
#include "sluice/table/sink/file_store_commit.h"

namespace sluice {

TableCommit::TableCommit(std::unique_ptr<FileStoreCommit> commit,
                         std::unique_ptr<CommitMaintenance> maintenance,
                         std::optional<std::optional<PartitionSpec>> overwrite)
    : commit_(std::move(commit)),
      maintenance_(std::move(maintenance)),
      overwrite_(std::move(overwrite)) {}

TableCommit::~TableCommit() = default;

const std::string& TableCommit::commit_user() const { return commit_->commit_user(); }

Result<CommitResult> TableCommit::Commit(std::vector<CommitMessage> messages,
                                         int64_t commit_identifier,
                                         std::optional<int64_t> watermark) {
  ManifestCommittable committable;
  committable.identifier = commit_identifier;
  committable.watermark = watermark;
  committable.messages.reserve(messages.size());
  for (const CommitMessage& message : messages) {
    committable.messages.push_back(ApiAccess::ImplOf(message));
  }
  SLUICE_ASSIGN_OR_RETURN(CommitResult result, overwrite_
                                                   ? commit_->Overwrite(committable, *overwrite_)
                                                   : commit_->Commit(committable));
  if (!result.snapshot_ids.empty()) {
    result.maintenance_failed =
        maintenance_->AfterCommit(commit_identifier == TableWrite::kBatchCommitIdentifier);
  }
  return result;
}

Result<std::vector<int64_t>> TableCommit::FilterCommitted(std::vector<int64_t> identifiers) {
  return commit_->FilterCommitted(std::move(identifiers));
}

}  // namespace sluice
