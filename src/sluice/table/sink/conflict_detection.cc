#include "sluice/table/sink/conflict_detection.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "sluice/index/hash_index_file.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/row/binary_row.h"
#include "sluice/types/value_comparator.h"
#include "sluice/value_json.h"

namespace sluice {

namespace {

std::string DescribeEntry(const ConflictCheckContext& context, const ManifestEntry& entry) {
  return "partition {" + DescribePartition(entry.partition, *context.partition_type) +
         "}, bucket " + std::to_string(entry.bucket) + ", level " +
         std::to_string(entry.file.level) + ", file " + entry.file.file_name;
}

Status ConflictError(const ConflictCheckContext& context, const Snapshot& latest,
                     const std::string& what) {
  return Status::Conflict("commit conflict in table " + context.table_path + ": " + what +
                          " (checked against snapshot " + std::to_string(latest.id) +
                          " by commit user " + latest.commit_user + "; current commit user is " +
                          context.commit_user + "). Give up committing.");
}

int CompareKeys(const ValueList& a, const ValueList& b, const DataType& key_type) {
  const auto& fields = key_type.fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const int c = CompareValues(a[i], b[i], *fields[i].type);
    if (c != 0) return c;
  }
  return 0;
}

}  // namespace

std::string DescribePartition(const std::string& serialized_partition,
                              const DataType& partition_type) {
  const auto& fields = partition_type.fields();
  if (fields.empty()) return "<unpartitioned>";
  auto values = DecodeSerializedBinaryRow(serialized_partition, partition_type);
  if (!values.ok()) return "<undecodable partition>";
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ", ";
    out += fields[i].name + "=" + ValueToJson((*values)[i], *fields[i].type);
  }
  return out;
}

Status CheckNoConflicts(const ConflictCheckContext& context, const Snapshot& latest,
                        const std::vector<ManifestEntry>& base,
                        const std::vector<ManifestEntry>& delta, CommitKind kind) {
  if (kind != CommitKind::kOverwrite) {
    std::map<std::string, int32_t> total_buckets;
    for (const auto* list : {&base, &delta}) {
      for (const auto& entry : *list) {
        if (entry.total_buckets <= 0) continue;
        auto [it, inserted] = total_buckets.emplace(entry.partition, entry.total_buckets);
        if (!inserted && it->second != entry.total_buckets) {
          return ConflictError(context, latest,
                               "total buckets of partition {" +
                                   DescribePartition(entry.partition, *context.partition_type) +
                                   "} changed from " + std::to_string(it->second) + " to " +
                                   std::to_string(entry.total_buckets) + " without overwrite");
        }
      }
    }
  }

  FileEntryMerger merger;
  for (const auto& entry : base) {
    Status st = merger.Add(entry);
    if (!st.ok()) return ConflictError(context, latest, st.message());
  }
  for (const auto& entry : delta) {
    if (!merger.Add(entry).ok()) {
      return ConflictError(context, latest,
                           "file deletion conflicts detected: the commit adds " +
                               DescribeEntry(context, entry) + ", which is already live");
    }
  }
  std::vector<ManifestEntry> merged = std::move(merger).Finish();
  for (const auto& entry : merged) {
    if (entry.kind == FileKind::kDelete) {
      return ConflictError(context, latest,
                           "file deletion conflicts detected: the commit deletes " +
                               DescribeEntry(context, entry) +
                               ", which is not live (deleted twice, or compacted away by a "
                               "concurrent commit)");
    }
  }

  if (!context.key_type) return Status::OK();

  // Files of every level >= 1 of each bucket, with their decoded key ranges.
  struct Ranged {
    const ManifestEntry* entry;
    ValueList min_key;
    ValueList max_key;
  };
  std::map<std::tuple<std::string, int32_t, int32_t>, std::vector<Ranged>> levels;
  for (const auto& entry : merged) {
    if (entry.file.level < 1) continue;
    Ranged r{&entry, {}, {}};
    auto min_key = DecodeSerializedBinaryRow(entry.file.min_key, *context.key_type);
    auto max_key = DecodeSerializedBinaryRow(entry.file.max_key, *context.key_type);
    if (!min_key.ok()) return min_key.status().WithContext(DescribeEntry(context, entry));
    if (!max_key.ok()) return max_key.status().WithContext(DescribeEntry(context, entry));
    r.min_key = std::move(*min_key);
    r.max_key = std::move(*max_key);
    levels[{entry.partition, entry.bucket, entry.file.level}].push_back(std::move(r));
  }
  const DataType& key_type = *context.key_type;
  for (auto& [level, files] : levels) {
    std::sort(files.begin(), files.end(), [&](const Ranged& a, const Ranged& b) {
      return CompareKeys(a.min_key, b.min_key, key_type) < 0;
    });
    for (size_t i = 0; i + 1 < files.size(); ++i) {
      if (CompareKeys(files[i].max_key, files[i + 1].min_key, key_type) >= 0) {
        return ConflictError(context, latest,
                             "LSM conflicts detected: key ranges overlap within one level: " +
                                 DescribeEntry(context, *files[i].entry) + " and " +
                                 DescribeEntry(context, *files[i + 1].entry));
      }
    }
  }
  return Status::OK();
}

Status CheckNoIndexConflicts(const ConflictCheckContext& context, const Snapshot& latest,
                             const std::vector<IndexManifestEntry>& live_index,
                             const std::vector<IndexManifestEntry>& delta) {
  std::set<std::string> live;
  for (const auto& e : live_index) live.insert(e.file_name);
  auto describe = [&](const IndexManifestEntry& e) {
    return e.index_type + " index file " + e.file_name + " of partition {" +
           DescribePartition(e.partition, *context.partition_type) + "}, bucket " +
           std::to_string(e.bucket);
  };
  for (const auto& e : delta) {
    if (e.kind == FileKind::kDelete && live.erase(e.file_name) == 0) {
      return ConflictError(context, latest,
                           "index file conflicts detected: the commit deletes " + describe(e) +
                               ", which is not live (replaced by a concurrent commit)");
    }
  }
  // A bucket's new hash index must replace its live one: a writer that restored an older one
  // (or none) lost hashes another writer added since.
  std::map<std::pair<std::string, int32_t>, const IndexManifestEntry*> live_hash;
  for (const auto& e : live_index) {
    if (e.index_type == kHashIndexType && live.count(e.file_name) != 0) {
      live_hash[{e.partition, e.bucket}] = &e;
    }
  }
  for (const auto& e : delta) {
    if (e.kind != FileKind::kAdd || e.index_type != kHashIndexType) continue;
    auto it = live_hash.find({e.partition, e.bucket});
    if (it != live_hash.end()) {
      return ConflictError(context, latest,
                           "hash index conflicts detected: the commit adds " + describe(e) +
                               " but keeps " + it->second->file_name +
                               ", the bucket's live hash index (another writer assigned keys to "
                               "this bucket since this writer restored it)");
    }
  }
  for (const auto& e : delta) {
    if (e.kind == FileKind::kAdd && !live.insert(e.file_name).second) {
      return ConflictError(context, latest,
                           "index file conflicts detected: the commit adds " + describe(e) +
                               ", which is already live");
    }
  }
  return Status::OK();
}

}  // namespace sluice
