// FileEntryMerger: folds ADD and DELETE manifest entries by file identity (Java
// FileEntry.mergeEntries). A DELETE cancels the ADD of the same file seen before it; a DELETE
// whose ADD was not seen is kept (the ADD lives in an older manifest); a second ADD of a file
// that is live is an error. Entries keep their first-seen order.
//
// A file is identified by (partition, bucket, level, file name, extra files, embedded index,
// external path), as Java FileEntry.Identifier.
//
// Thread safety: not thread-safe; one merger per thread.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "sluice/meta/manifest_entry.h"
#include "sluice/result.h"

namespace sluice {

// The identity key of the file an entry refers to.
std::string FileEntryIdentifier(const ManifestEntry& entry);

// "<partition hex>, bucket <b>, level <l>, file <name>": a file named in error messages.
std::string DescribeFileEntry(const ManifestEntry& entry);

class FileEntryMerger {
 public:
  // InvalidArgument "Trying to add file ... which is already added." when an ADD meets a live ADD
  // of the same file.
  Status Add(ManifestEntry entry);
  Status AddAll(std::vector<ManifestEntry> entries);

  // The entries left after folding, in first-seen order.
  std::vector<ManifestEntry> Finish() &&;
  size_t size() const { return index_.size(); }

 private:
  std::vector<std::optional<ManifestEntry>> entries_;
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace sluice
