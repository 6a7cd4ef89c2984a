// Consumer: the content of `consumer/consumer-<id>` (Java Consumer): the progress of one
// streaming reader, the id of the next snapshot it will read. Written by Jackson as
//
//   {
//     "nextSnapshot" : 5
//   }
//
// Unknown keys are ignored on read (Java @JsonIgnoreProperties(ignoreUnknown = true)).
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

struct Consumer {
  int64_t next_snapshot = 0;

  // Errors (Corruption) name the field; callers add the file path.
  static Result<Consumer> FromJson(std::string_view json_text);
  // The file content Java writes (Jackson pretty printer, no final newline).
  std::string ToJson() const;

  bool operator==(const Consumer&) const = default;
};

}  // namespace sluice
