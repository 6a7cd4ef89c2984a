// KeyIndex: the key index of cross-partition upsert tables (Java GlobalIndexAssigner's
// `keyIndex`, a RocksDBValueState<primary key, PositiveIntInt>): the BinaryRow bytes of a
// primary key -> where the key lives, (partition id, bucket). Kept on local disk for the
// writer's lifetime, never shared, never part of the table.
//
// Two tiers, so the index never needs the whole key set in memory:
//   memory   an open-addressing hash table over an arena of key bytes, holding the keys put
//            since the last spill; it grows until it would pass its share of
//            `memory_bytes` (three quarters), then spills;
//   RocksDB  the spilled keys: the memory tier sorted and written as one SST file, ingested
//            (Java bulk-loads its bootstrap the same way), bloom filters keeping lookups of
//            new keys off the disk, a block cache of the remaining quarter of `memory_bytes`.
// Get looks at the memory tier first (it holds the newest location), then RocksDB. RocksDB,
// not a sorted-run store of our own: it brings bloom filters, a block cache and compaction
// of the spilled runs; the memory tier in front of it keeps the per-row cost of keys that fit
// in memory at a hash probe (bench/run.sh dynamic-bucket measures both tiers).
//
// `ttl_millis` (Java `cross-partition-upsert.index-ttl`): a location older than the TTL is
// gone (Get answers nullopt), as RocksDB's TTL state drops it; unlike RocksDB's, whose expiry
// waits for a compaction, the answer does not depend on when compactions ran.
//
// The directory is created by Open and removed with everything in it by the destructor.
//
// Thread safety: not thread-safe; one writer thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace rocksdb {
class DB;
class Cache;
}  // namespace rocksdb

namespace sluice {

struct KeyLocation {
  int32_t partition_id = 0;
  int32_t bucket = 0;
  bool operator==(const KeyLocation&) const = default;
};

struct KeyIndexOptions {
  // A local directory that must not exist yet; created, and removed with the index.
  std::string directory;
  // The memory tier's and RocksDB's block cache's budget together (Java
  // `sink.cross-partition.managed-memory`, 256 mb).
  int64_t memory_bytes = int64_t{256} << 20;
  std::optional<int64_t> ttl_millis;
  // Milliseconds since the epoch; unset: the system clock. Tests of the TTL set it.
  std::function<int64_t()> clock_millis;
};

class KeyIndex {
 public:
  // IOError naming the directory when it cannot be created or RocksDB cannot open there.
  static Result<std::unique_ptr<KeyIndex>> Open(KeyIndexOptions options);
  ~KeyIndex();
  KeyIndex(const KeyIndex&) = delete;
  KeyIndex& operator=(const KeyIndex&) = delete;

  // Where `key` lives, or nullopt when it is not indexed (or its location outlived the TTL).
  Result<std::optional<KeyLocation>> Get(std::string_view key);
  // Indexes `key` at `location`, replacing what it had.
  Status Put(std::string_view key, KeyLocation location);

  // Keys in the memory tier, and how many times it spilled to RocksDB.
  int64_t memory_keys() const { return memory_keys_; }
  int64_t spills() const { return spills_; }

 private:
  // One slot of the memory tier: the key's hash, where its bytes lie in the arena
  // (kEmptySlot: none), its location.
  struct Slot {
    uint32_t hash;
    uint32_t offset;
    KeyLocation location;
  };
  static constexpr uint32_t kEmptySlot = 0xFFFFFFFFu;

  KeyIndex(KeyIndexOptions options, int64_t memory_tier_bytes);
  Status OpenRocksDb();
  // The slot holding `key` or the empty slot where it would go.
  Slot* Probe(std::string_view key, uint32_t hash);
  std::string_view KeyAt(uint32_t offset) const;
  int64_t WrittenAt(uint32_t offset) const;
  bool Expired(int64_t written_millis) const;
  int64_t NowMillis() const;
  // Doubles the slot table, rehashing; or, past the budget, spills instead.
  Status MakeRoom(size_t key_size);
  Status Grow();
  // Writes the memory tier to RocksDB as one sorted SST file and empties it.
  Status Spill();

  KeyIndexOptions options_;
  int64_t memory_tier_bytes_;
  std::vector<Slot> slots_;  // a power of two
  // Per key: 4-byte length, the key bytes, then (with a TTL) the 8-byte write time.
  std::string arena_;
  int64_t memory_keys_ = 0;
  int64_t spills_ = 0;
  int64_t spilled_keys_ = 0;
  std::shared_ptr<rocksdb::Cache> block_cache_;
  std::unique_ptr<rocksdb::DB> db_;
  std::string value_scratch_;
};

}  // namespace sluice
