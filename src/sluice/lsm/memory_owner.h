// MemoryOwner: a holder of write-buffer memory drawn from a MemoryPoolFactory (Java
// org.apache.paimon.memory.MemoryOwner): the pool asks it how much it holds and, when another
// owner needs room, to flush.
//
// Thread safety: called from the writer thread only.
#pragma once

#include <cstdint>

#include "sluice/result.h"

namespace sluice {

class MemoryOwner {
 public:
  virtual ~MemoryOwner() = default;

  // The bytes this owner has accounted to its pool.
  virtual int64_t memory_occupancy() const = 0;
  // Writes the buffered rows out and gives all of the memory back (occupancy 0 afterwards,
  // also when it fails).
  virtual Status FlushMemory() = 0;
};

}  // namespace sluice
