// Split: the unit of work of a scan (Java DataSplit): the data files of one bucket of one
// partition at one snapshot, with where they lie and their deletion vectors. A TableScan
// plans splits; a TableRead of the same table reads them, in this process or, through
// Serialize / Deserialize, in another one.
//
// The serialized form: the magic "SLSP", a version byte, then the split's fields; the data
// files as rows of Paimon's DataFileMeta schema (BinaryRow encoded). Deserialize refuses
// anything else with a Corruption (wrong magic, truncated, trailing bytes, bad rows) or a
// NotSupported (a version this library does not read) status; it never crashes.
//
// Thread safety: an immutable value; share freely.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

class Split {
 public:
  static constexpr uint8_t kSerializationVersion = 2;

  int64_t snapshot_id() const;
  // The partition's values, in partition-key order.
  const ValueList& partition() const;
  int32_t bucket() const;
  // Data files, and the rows they hold before merging and deletion vectors.
  int64_t file_count() const;
  int64_t row_count() const;

  // Internal on metadata that does not encode (never for what a scan or write produced).
  Result<std::string> Serialize() const;
  static Result<Split> Deserialize(std::string_view bytes);

  // Same files, paths and options of reading (for tests of the serialized form).
  bool operator==(const Split& other) const;

 private:
  friend struct ApiAccess;
  struct Rep;
  explicit Split(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}

  std::shared_ptr<const Rep> rep_;
};

}  // namespace sluice
