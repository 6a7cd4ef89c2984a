// CommitMessage: what a TableWrite hands to a TableCommit for one partition and bucket (Java
// CommitMessage): the data files it added and removed since its last PrepareCommit, by cause
// (new input, compaction, changelog, index files). Writers in many processes can hand their
// messages to one committer through Serialize / Deserialize.
//
// The serialized form: the magic "SLCM", a version byte, then the message's fields; files as
// rows of Paimon's DataFileMeta and IndexManifestEntry schemas (BinaryRow encoded).
// Deserialize refuses anything else with a Corruption (wrong magic, truncated, trailing bytes,
// bad rows) or NotSupported (an unknown version) status; it never crashes.
//
// Thread safety: an immutable value; share freely.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

class CommitMessage {
 public:
  static constexpr uint8_t kSerializationVersion = 1;

  int32_t bucket() const;
  // Data files this message adds (new input and compaction results).
  int64_t new_file_count() const;
  // Files a compaction rewrote, and the files it wrote in their place.
  int64_t compact_before_count() const;
  int64_t compact_after_count() const;
  bool empty() const;

  // Internal on metadata that does not encode (never for what a scan or write produced).
  Result<std::string> Serialize() const;
  static Result<CommitMessage> Deserialize(std::string_view bytes);

  bool operator==(const CommitMessage& other) const;

 private:
  friend struct ApiAccess;
  struct Rep;
  explicit CommitMessage(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}

  std::shared_ptr<const Rep> rep_;
};

}  // namespace sluice
