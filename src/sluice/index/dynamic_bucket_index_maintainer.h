// DynamicBucketIndexMaintainer: the hash index of one bucket of a dynamic-bucket table while a
// writer writes it (Java index/DynamicBucketIndexMaintainer): restored from the bucket's live
// HASH file, it takes the key hash of every record written to the bucket (deletes too: a key
// keeps its bucket after its row is gone) and, when a commit added a hash, writes the bucket's
// whole hash set as a new HASH file for the commit.
//
// Java's commit messages carry only the new file (the index manifest combiner replaces the
// bucket's previous HASH entry). Sluice's also name the file it replaces as deleted: the
// committer checks it is still the bucket's live hash index, so two writers that both added
// keys to one bucket conflict instead of the later silently dropping the earlier's hashes (the
// index manifest Sluice writes is the same full state either way).
//
// Thread safety: not thread-safe; owned by one bucket writer.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sluice/base/int_hash_map.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/result.h"

namespace sluice {

class DynamicBucketIndexMaintainer {
 public:
  // Writes the hashes as a new HASH file and returns its entry.
  using FileWriter = std::function<Result<IndexManifestEntry>(const std::vector<int32_t>&)>;

  // `restored`: the bucket's live HASH entry and its hashes, or nullopt for a new bucket.
  DynamicBucketIndexMaintainer(std::optional<IndexManifestEntry> restored,
                               const std::vector<int32_t>& hashes);

  void NotifyNewRecord(int32_t key_hash) {
    if (set_.Add(key_hash)) {
      hashes_.push_back(key_hash);
      modified_ = true;
    }
  }
  // NotifyNewRecord of key_hashes[rows[i]] for i in [0, n), the set's probes prefetched.
  void NotifyNewRecords(const int32_t* key_hashes, const int64_t* rows, int64_t n);

  struct Increment {
    std::vector<IndexManifestEntry> new_files;
    std::vector<IndexManifestEntry> deleted_files;
  };
  // Nothing when no hash was added since the last call; else the new HASH file written by
  // `write` (and the entry it replaces), which becomes the restored file of the next call.
  Result<Increment> PrepareCommit(const FileWriter& write);

  size_t size() const { return hashes_.size(); }

 private:
  std::optional<IndexManifestEntry> current_;
  // The hash set in insertion order (restored file order, then new hashes), as written.
  std::vector<int32_t> hashes_;
  IntHashSet set_;
  bool modified_ = false;
};

}  // namespace sluice
