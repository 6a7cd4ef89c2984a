// CommitMessageImpl: what a writer of one partition and bucket hands to the committer (Java
// CommitMessageImpl with DataIncrement and CompactIncrement): the files it added and removed
// since its last commit, by cause.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "sluice/meta/data_file_meta.h"
#include "sluice/meta/index_manifest_entry.h"

namespace sluice {

// Files written by new input (Java DataIncrement).
struct DataIncrement {
  std::vector<DataFileMeta> new_files;
  // Files removed by the input itself (e.g. an append writer that dropped a file).
  std::vector<DataFileMeta> deleted_files;
  std::vector<DataFileMeta> changelog_files;
  // Index files (deletion vectors, hash index); only kind, index_type, file_name, file_size,
  // row_count, deletion_vectors and external_path are read by the committer.
  std::vector<IndexManifestEntry> new_index_files;
  std::vector<IndexManifestEntry> deleted_index_files;

  bool empty() const {
    return new_files.empty() && deleted_files.empty() && changelog_files.empty() &&
           new_index_files.empty() && deleted_index_files.empty();
  }
};

// Files rewritten by compaction (Java CompactIncrement).
struct CompactIncrement {
  std::vector<DataFileMeta> compact_before;
  std::vector<DataFileMeta> compact_after;
  std::vector<DataFileMeta> changelog_files;
  std::vector<IndexManifestEntry> new_index_files;
  std::vector<IndexManifestEntry> deleted_index_files;

  bool empty() const {
    return compact_before.empty() && compact_after.empty() && changelog_files.empty() &&
           new_index_files.empty() && deleted_index_files.empty();
  }

  // The data and changelog files this compaction wrote: what discarding it (a commit that
  // fails, a write closed before its commit) may delete. A file of compact_after that has the
  // name of a compact_before file was reused, not written (an upgrade moves a file to another
  // level as it is): a snapshot still names it, so it is never among them (Java 2.1.1,
  // apache/paimon#10582). Pointers into this increment.
  std::vector<const DataFileMeta*> WrittenFiles() const {
    std::set<std::string> reused;
    for (const DataFileMeta& f : compact_before) reused.insert(f.file_name);
    std::vector<const DataFileMeta*> written;
    for (const DataFileMeta& f : compact_after) {
      if (reused.count(f.file_name) == 0) written.push_back(&f);
    }
    for (const DataFileMeta& f : changelog_files) written.push_back(&f);
    return written;
  }
};

struct CommitMessageImpl {
  // Serialized BinaryRow of the partition values (as manifests store it).
  std::string partition;
  int32_t bucket = 0;
  // The table's bucket count the files were written for, as the manifest's `_TOTAL_BUCKETS`
  // records it (the corpus shows what Java writes for bucket-unaware and dynamic-bucket tables).
  int32_t total_buckets = 0;
  DataIncrement data;
  CompactIncrement compact;

  bool empty() const { return data.empty() && compact.empty(); }
};

}  // namespace sluice
