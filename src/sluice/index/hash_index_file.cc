#include "sluice/index/hash_index_file.h"

#include "sluice/base/coding.h"

namespace sluice {

Result<std::vector<int32_t>> ReadHashIndexFile(FileIO& io, const std::string& path) {
  SLUICE_ASSIGN_OR_RETURN(std::string content, io.ReadFile(path));
  if (content.size() % 4 != 0) {
    return Status::Corruption("hash index file " + path + " has " + std::to_string(content.size()) +
                              " bytes, not a whole number of 4-byte hashes");
  }
  std::vector<int32_t> hashes(content.size() / 4);
  const auto* bytes = reinterpret_cast<const uint8_t*>(content.data());
  for (size_t i = 0; i < hashes.size(); ++i) {
    hashes[i] = static_cast<int32_t>(DecodeFixed32BE(bytes + 4 * i));
  }
  return hashes;
}

Result<IndexManifestEntry> WriteHashIndexFile(FileIO& io, const std::string& path,
                                              const std::vector<int32_t>& hashes) {
  std::string content(hashes.size() * 4, '\0');
  auto* bytes = reinterpret_cast<uint8_t*>(content.data());
  for (size_t i = 0; i < hashes.size(); ++i) {
    EncodeFixed32BE(bytes + 4 * i, static_cast<uint32_t>(hashes[i]));
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file,
                          io.OpenForWrite(path, /*overwrite=*/false));
  SLUICE_RETURN_NOT_OK(file->Append(content));
  SLUICE_RETURN_NOT_OK(file->Close());
  IndexManifestEntry entry;
  entry.kind = FileKind::kAdd;
  entry.index_type = std::string(kHashIndexType);
  const size_t slash = path.find_last_of('/');
  entry.file_name = slash == std::string::npos ? path : path.substr(slash + 1);
  entry.file_size = static_cast<int64_t>(content.size());
  entry.row_count = static_cast<int64_t>(hashes.size());
  return entry;
}

}  // namespace sluice
