// SourceOffsets: where a source is, per split: the position of the next message to read
// (Kafka's committed-offset convention: last applied offset + 1).
//
// Serialised as a JSON object {"<split>": <offset>, ...} into a snapshot's `properties`
// (kSnapshotProperty) and into the job's progress file, so that a restarted job resumes
// exactly where its commits ended.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

struct SourceOffsets {
  // The snapshot property that carries a table's offsets.
  static constexpr std::string_view kSnapshotProperty = "sluice.cdc.offsets";

  // Splits named with this prefix record a fact about one table (a binlog source's
  // "fact:copied:<table>": the table's snapshot copy is committed, taken at the binlog position
  // the offset encodes), not a place in a stream of messages: it is committed with that table
  // only (SourceMessage::fact_table), and a restarted job takes it from the table, whatever its
  // progress file, which can lag behind the tables, says.
  static constexpr std::string_view kFactPrefix = "fact:";
  static bool IsFact(std::string_view split) {
    return split.substr(0, kFactPrefix.size()) == kFactPrefix;
  }

  std::map<std::string, int64_t> next;

  // The next offset of `split`, or -1 when the split has none.
  int64_t Next(const std::string& split) const {
    auto it = next.find(split);
    return it == next.end() ? -1 : it->second;
  }
  // Whether the message at `offset` of `split` lies before these offsets (already applied).
  bool Covers(const std::string& split, int64_t offset) const { return offset < Next(split); }

  // Moves each split of `other` forward to its offset there when that is further: the offsets a
  // table holds once a run that resumed behind them (it skipped what the table holds) has
  // consumed up to `other`. Never moves a split back.
  void AdvanceTo(const SourceOffsets& other);

  std::string ToJson() const;
  // Corruption naming the text when it is not such an object.
  static Result<SourceOffsets> FromJson(std::string_view text);
};

}  // namespace sluice
