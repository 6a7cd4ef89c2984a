#include "sluice/index/deletion_vector_reader.h"

#include <string>

#include "sluice/base/coding.h"

namespace sluice {

namespace {

Result<DeletionVector> Read(FileIO& io, const DeletionFile& file) {
  SLUICE_ASSIGN_OR_RETURN(auto in, io.OpenForRead(file.path));
  const int64_t size = in->size();
  uint8_t version = 0;
  if (size < 1) return Status::Corruption("empty index file");
  SLUICE_RETURN_NOT_OK(in->ReadAt(0, 1, &version));
  if (version != kDeletionVectorIndexVersion) {
    return Status::Corruption("unsupported index file version " + std::to_string(version));
  }
  if (file.offset < 1 || file.length < 0 || file.offset > size - 8) {
    return Status::Corruption("entry header (8 bytes) does not fit the index file of " +
                              std::to_string(size) + " bytes");
  }
  uint8_t header[8];
  SLUICE_RETURN_NOT_OK(in->ReadAt(file.offset, 8, header));
  const int64_t length = DecodeFixed32BE(header);
  const bool is64 = DecodeFixed32BE(header + 4) != DeletionVector::kBitmap32Magic &&
                    DecodeFixed32LE(header + 4) == DeletionVector::kBitmap64Magic;
  // The manifest records L for the 32-bit variant, the whole entry (L + 8) for the 64-bit one.
  const int64_t expected = is64 ? length + 8 : length;
  if (file.length != expected) {
    return Status::Corruption("length field " + std::to_string(length) +
                              " does not match the manifest length " + std::to_string(file.length));
  }
  const int64_t entry_size = length + 8;
  if (entry_size > size - file.offset) {
    return Status::Corruption("entry of " + std::to_string(entry_size) +
                              " bytes runs past the end of the index file (" +
                              std::to_string(size) + " bytes)");
  }
  std::string entry(static_cast<size_t>(entry_size), '\0');
  SLUICE_RETURN_NOT_OK(
      in->ReadAt(file.offset, entry_size, reinterpret_cast<uint8_t*>(entry.data())));
  SLUICE_ASSIGN_OR_RETURN(DeletionVector dv, DeletionVector::Deserialize(entry));
  if (file.cardinality && *file.cardinality != dv.Cardinality()) {
    return Status::Corruption("holds " + std::to_string(dv.Cardinality()) +
                              " positions, the manifest says " + std::to_string(*file.cardinality));
  }
  return dv;
}

}  // namespace

Result<DeletionVector> ReadDeletionVector(FileIO& io, const DeletionFile& file) {
  auto result = Read(io, file);
  if (!result.ok()) {
    return result.status().WithContext("deletion vector at offset " + std::to_string(file.offset) +
                                       " of " + file.path);
  }
  return result;
}

}  // namespace sluice
