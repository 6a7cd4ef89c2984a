#include "sluice/tags.h"

#include "sluice/api/api_access.h"
#include "sluice/maintenance/tag_operations.h"

namespace sluice {

namespace {

TagRequest RequestOf(const CreateTagOptions& options) {
  TagRequest request;
  request.snapshot_id = options.snapshot_id;
  request.time_retained_millis = options.time_retained_millis;
  request.ignore_if_exists = options.ignore_if_exists;
  return request;
}

}  // namespace

Result<int64_t> CreateTag(const Table& table, std::string_view name,
                          const CreateTagOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, sluice::CreateTag(*ApiAccess::FileStoreTableOf(table),
                                                               name, RequestOf(options)));
  return snapshot.id;
}

Result<int64_t> ReplaceTag(const Table& table, std::string_view name,
                           const CreateTagOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, sluice::ReplaceTag(*ApiAccess::FileStoreTableOf(table),
                                                                name, RequestOf(options)));
  return snapshot.id;
}

Result<int64_t> CreateTagFromTimestamp(const Table& table, std::string_view name,
                                       int64_t timestamp_millis,
                                       std::optional<int64_t> time_retained_millis) {
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot,
                          sluice::CreateTagFromTimestamp(*ApiAccess::FileStoreTableOf(table), name,
                                                         timestamp_millis, time_retained_millis));
  return snapshot.id;
}

Status DeleteTags(const Table& table, const std::vector<std::string>& names) {
  return sluice::DeleteTags(*ApiAccess::FileStoreTableOf(table), names);
}

Status RenameTag(const Table& table, std::string_view from, std::string_view to) {
  return sluice::RenameTag(*ApiAccess::FileStoreTableOf(table), from, to);
}

Result<std::vector<std::string>> ExpireTags(const Table& table,
                                            std::optional<int64_t> older_than_millis) {
  ExpireTagsOptions options;
  options.older_than_millis = older_than_millis;
  return sluice::ExpireTags(*ApiAccess::FileStoreTableOf(table), options);
}

}  // namespace sluice
