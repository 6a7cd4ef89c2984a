#include "sluice/meta/live_files.h"

#include <string>

#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"

namespace sluice {

Result<std::vector<ManifestEntry>> ReadLiveDataFiles(FileIO& io, std::string_view table_path,
                                                     const Snapshot& snapshot) {
  FileEntryMerger merger;
  for (const std::string* list : {&snapshot.base_manifest_list, &snapshot.delta_manifest_list}) {
    if (list->empty()) continue;
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestFileMeta> manifests,
                            ReadManifestList(io, ManifestFilePath(table_path, *list)));
    for (const ManifestFileMeta& manifest : manifests) {
      SLUICE_ASSIGN_OR_RETURN(
          std::vector<ManifestEntry> entries,
          ReadManifestFile(io, ManifestFilePath(table_path, manifest.file_name)));
      SLUICE_RETURN_NOT_OK_CTX(merger.AddAll(std::move(entries)),
                               "snapshot " + std::to_string(snapshot.id));
    }
  }
  std::vector<ManifestEntry> live;
  for (ManifestEntry& entry : std::move(merger).Finish()) {
    if (entry.kind == FileKind::kAdd) live.push_back(std::move(entry));
  }
  return live;
}

Result<std::vector<IndexManifestEntry>> ReadLiveIndexFiles(FileIO& io, std::string_view table_path,
                                                           const Snapshot& snapshot) {
  if (!snapshot.index_manifest || snapshot.index_manifest->empty()) {
    return std::vector<IndexManifestEntry>{};
  }
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<IndexManifestEntry> entries,
      ReadIndexManifest(io, ManifestFilePath(table_path, *snapshot.index_manifest)));
  std::vector<IndexManifestEntry> live;
  for (IndexManifestEntry& e : entries) {
    if (e.kind == FileKind::kAdd) live.push_back(std::move(e));
  }
  return live;
}

}  // namespace sluice
