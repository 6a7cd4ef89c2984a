#include "sluice/maintenance/changelog_deletion.h"

namespace sluice {

Result<bool> ChangelogDeletion::ListExists(const std::string& list_name) const {
  return table_.io()->Exists(ManifestFilePath(table_.path(), list_name));
}

Status ChangelogDeletion::PlanChangelogDataFiles(const Snapshot& changelog, const UsedFiles& keep) {
  if (changelog.changelog_manifest_list) {
    SLUICE_ASSIGN_OR_RETURN(bool exists, ListExists(*changelog.changelog_manifest_list));
    if (!exists) return Status::OK();
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                            ReadManifestListEntries(table_, *changelog.changelog_manifest_list));
    return PlanAddedEntries(entries);
  }
  SLUICE_ASSIGN_OR_RETURN(bool exists, ListExists(changelog.delta_manifest_list));
  if (!exists) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries,
                          ReadManifestListEntries(table_, changelog.delta_manifest_list));
  return PlanDeletedEntries(entries, keep, /*skip_append_files=*/false);
}

Status ChangelogDeletion::PlanChangelogManifests(const Snapshot& changelog, const UsedFiles& keep) {
  std::vector<std::string> lists;
  if (changelog.changelog_manifest_list) {
    lists.push_back(*changelog.changelog_manifest_list);
  } else {
    lists = {changelog.delta_manifest_list, changelog.base_manifest_list};
  }
  for (const std::string& list : lists) {
    SLUICE_ASSIGN_OR_RETURN(bool exists, ListExists(list));
    if (exists) SLUICE_RETURN_NOT_OK(PlanManifestList(list, keep));
  }
  return Status::OK();
}

}  // namespace sluice
