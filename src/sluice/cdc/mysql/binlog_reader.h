// BinlogFileReader: the events of a binlog file (MySQL / MariaDB `binlog.000001`): the 4-byte
// magic "\xfebin", then events back to back, each as long as its header's event_length. For
// tests and the fuzz target; a live source gets its events from the replication protocol.
//
// Thread safety: a reader is a cursor over bytes the caller keeps alive.
#pragma once

#include <cstdint>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

class BinlogFileReader {
 public:
  // Corruption when `content` does not start with the binlog magic.
  static Result<BinlogFileReader> Open(std::string_view content);

  // Sets `event` to the next event's bytes (a view into the content) and returns true; false
  // at the end of the file. Corruption naming the offset for an event shorter than its header
  // or longer than the bytes left.
  Result<bool> Next(std::string_view* event);

  // Offset of the next event in the file (its start position, as log_pos counts).
  uint64_t position() const { return position_; }

 private:
  explicit BinlogFileReader(std::string_view content) : content_(content) {}

  std::string_view content_;
  uint64_t position_ = 0;
};

}  // namespace sluice
