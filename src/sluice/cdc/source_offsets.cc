#include "sluice/cdc/source_offsets.h"

#include <algorithm>
#include <string>

#include "sluice/base/json_reader.h"
#include "sluice/base/json_writer.h"

namespace sluice {

void SourceOffsets::AdvanceTo(const SourceOffsets& other) {
  for (const auto& [split, offset] : other.next) {
    auto [it, inserted] = next.emplace(split, offset);
    if (!inserted) it->second = std::max(it->second, offset);
  }
}

std::string SourceOffsets::ToJson() const {
  std::string out = "{";
  bool first = true;
  for (const auto& [split, offset] : next) {
    if (!first) out += ',';
    first = false;
    AppendJsonString(split, &out);
    out += ':';
    out += std::to_string(offset);
  }
  out += '}';
  return out;
}

Result<SourceOffsets> SourceOffsets::FromJson(std::string_view text) {
  // The text comes from a snapshot or a progress file: show a bounded piece of it.
  constexpr size_t kShown = 200;
  auto context = [&](const Status& status) {
    std::string shown(text.substr(0, kShown));
    if (text.size() > kShown) shown += "...";
    return Status::Corruption("source offsets '" + shown + "': " + status.message());
  };
  auto parsed = ParseJson(text);
  if (!parsed.ok()) return context(parsed.status());
  const Json& json = *parsed;
  if (Status st = ExpectObject(json, "offsets"); !st.ok()) return context(st);
  SourceOffsets offsets;
  for (const auto& [split, value] : json.items()) {
    auto offset = JsonToInt64(value, split);
    if (!offset.ok()) return context(offset.status());
    if (*offset < 0) {
      return context(
          Status::Corruption("field '" + split + "': negative offset " + std::to_string(*offset)));
    }
    offsets.next[split] = *offset;
  }
  return offsets;
}

}  // namespace sluice
