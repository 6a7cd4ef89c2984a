#include "sluice/table_commit.h"

namespace sluice {

Result<CommitResult> TableCommit::Commit(std::vector<CommitMessage> messages,
                                         int64_t commit_identifier) {
  ManifestCommittable committable;
  committable.identifier = commit_identifier;
  committable.messages = std::move(messages);
  if (overwrite_) return commit_->Overwrite(committable, *overwrite_);
  return commit_->Commit(committable);
}

Result<std::vector<int64_t>> TableCommit::FilterCommitted(std::vector<int64_t> identifiers) {
  return commit_->FilterCommitted(std::move(identifiers));
}

}  // namespace sluice
