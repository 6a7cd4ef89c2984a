#include "sluice/table/sink/index_manifest_file_handler.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "sluice/index/bucketed_dv_maintainer.h"
#include "sluice/index/hash_index_file.h"

namespace sluice {

Result<std::vector<IndexManifestEntry>> CombineIndexManifestEntries(
    std::vector<IndexManifestEntry> previous, const std::vector<IndexManifestEntry>& changes,
    bool bucket_unaware) {
  for (const auto& e : changes) {
    if (e.index_type != kDeletionVectorsIndexType && e.index_type != kHashIndexType) {
      return Status::NotSupported("index file " + e.file_name + " has index type '" + e.index_type +
                                  "', which the committer does not know");
    }
  }
  auto key_of = [&](const IndexManifestEntry& e) {
    if (bucket_unaware && e.index_type == kDeletionVectorsIndexType) return "f:" + e.file_name;
    return "b:" + std::to_string(e.partition.size()) + ":" + e.partition + ":" +
           std::to_string(e.bucket) + ":" + e.index_type;
  };
  std::vector<std::optional<IndexManifestEntry>> entries;
  std::unordered_map<std::string, size_t> index;
  for (auto& e : previous) {
    index[key_of(e)] = entries.size();
    entries.push_back(std::move(e));
  }
  // Deletions first, so that a DELETE and an ADD of one bucket leave the ADD.
  for (const auto& e : changes) {
    if (e.kind != FileKind::kDelete) continue;
    auto it = index.find(key_of(e));
    if (it == index.end()) continue;
    entries[it->second].reset();
    index.erase(it);
  }
  for (const auto& e : changes) {
    if (e.kind != FileKind::kAdd) continue;
    const std::string key = key_of(e);
    auto it = index.find(key);
    if (it != index.end()) {
      entries[it->second] = e;
    } else {
      index[key] = entries.size();
      entries.push_back(e);
    }
  }
  std::vector<IndexManifestEntry> out;
  for (auto& e : entries) {
    if (e) out.push_back(std::move(*e));
  }
  return out;
}

}  // namespace sluice
