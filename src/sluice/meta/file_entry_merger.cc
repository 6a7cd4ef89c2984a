#include "sluice/meta/file_entry_merger.h"

#include <utility>

namespace sluice {

namespace {

void AppendPart(std::string* key, std::string_view part) {
  *key += std::to_string(part.size());
  *key += ':';
  *key += part;
}

std::string Hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

}  // namespace

std::string FileEntryIdentifier(const ManifestEntry& entry) {
  const DataFileMeta& f = entry.file;
  std::string key;
  AppendPart(&key, entry.partition);
  AppendPart(&key, std::to_string(entry.bucket));
  AppendPart(&key, std::to_string(f.level));
  AppendPart(&key, f.file_name);
  AppendPart(&key, std::to_string(f.extra_files.size()));
  for (const auto& extra : f.extra_files) AppendPart(&key, extra);
  AppendPart(&key, f.embedded_file_index ? "1" + *f.embedded_file_index : "0");
  AppendPart(&key, f.external_path ? "1" + *f.external_path : "0");
  return key;
}

std::string DescribeFileEntry(const ManifestEntry& entry) {
  return "partition " + Hex(entry.partition) + ", bucket " + std::to_string(entry.bucket) +
         ", level " + std::to_string(entry.file.level) + ", file " + entry.file.file_name;
}

Status FileEntryMerger::Add(ManifestEntry entry) {
  std::string key = FileEntryIdentifier(entry);
  auto it = index_.find(key);
  if (entry.kind == FileKind::kAdd) {
    if (it != index_.end()) {
      return Status::InvalidArgument("Trying to add file " + DescribeFileEntry(entry) +
                                     " which is already added.");
    }
    index_.emplace(std::move(key), entries_.size());
    entries_.push_back(std::move(entry));
    return Status::OK();
  }
  if (it != index_.end()) {
    // Each file is added once and deleted once: the pair cancels out.
    entries_[it->second].reset();
    index_.erase(it);
    return Status::OK();
  }
  index_.emplace(std::move(key), entries_.size());
  entries_.push_back(std::move(entry));
  return Status::OK();
}

Status FileEntryMerger::AddAll(std::vector<ManifestEntry> entries) {
  for (auto& entry : entries) SLUICE_RETURN_NOT_OK(Add(std::move(entry)));
  return Status::OK();
}

std::vector<ManifestEntry> FileEntryMerger::Finish() && {
  std::vector<ManifestEntry> out;
  out.reserve(index_.size());
  for (auto& entry : entries_) {
    if (entry) out.push_back(std::move(*entry));
  }
  return out;
}

}  // namespace sluice
