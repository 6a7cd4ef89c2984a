// The byte encoding of serialized splits and commit messages (split.h, commit_message.h):
// a 4-byte magic, a version byte, then fields as varints (zigzag for signed), length-prefixed
// bytes, and records of Paimon's manifest schemas (DataFileMeta inside a ManifestEntry,
// IndexManifestEntry) as length-prefixed BinaryRows. ByteReader checks every length against
// what is left, so corrupt input is a Corruption status, never an out-of-bounds read.
//
// Thread safety: a writer / reader is used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/meta/data_file_meta.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/result.h"

namespace sluice {

class ByteWriter {
 public:
  ByteWriter(std::string_view magic, uint8_t version);

  void PutInt(int64_t v);
  void PutBool(bool v) { PutInt(v ? 1 : 0); }
  void PutBytes(std::string_view bytes);
  Status PutDataFile(const DataFileMeta& file);
  Status PutIndexFile(const IndexManifestEntry& entry);
  // A Value with its kind (self-describing: no type needed to read it back).
  void PutValue(const Value& value);

  std::string Finish() && { return std::move(out_); }

 private:
  std::string out_;
};

class ByteReader {
 public:
  // `what` names the kind of input in errors ("split", "commit message").
  ByteReader(std::string_view bytes, std::string_view what) : bytes_(bytes), what_(what) {}

  // Checks the magic and that the version is `version`.
  Status ReadHeader(std::string_view magic, uint8_t version);
  Result<int64_t> ReadInt(std::string_view field);
  Result<int32_t> ReadInt32(std::string_view field);
  Result<bool> ReadBool(std::string_view field);
  Result<std::string> ReadBytes(std::string_view field);
  // A count of records that follow, each at least one byte long.
  Result<size_t> ReadCount(std::string_view field);
  Result<DataFileMeta> ReadDataFile(std::string_view field);
  Result<IndexManifestEntry> ReadIndexFile(std::string_view field);
  Result<Value> ReadValue(std::string_view field, int depth = 0);
  // Corruption when bytes are left over.
  Status ExpectEnd() const;

 private:
  Status Corrupt(std::string_view field, std::string_view problem) const;

  std::string_view bytes_;
  size_t pos_ = 0;
  std::string what_;
};

}  // namespace sluice
