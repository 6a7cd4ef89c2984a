// IntHashMap / IntHashSet: open-addressing hash tables keyed by int32 (Java Paimon's
// Int2ShortHashMap and IntHashSet, over fastutil's open hash maps), for the key hashes of
// dynamic-bucket tables: millions of entries per bucket, looked up once per written row.
//
// One flat array of slots probed linearly (no node per entry, no allocation per insert), kept at
// most 3/4 full; key 0 marks an empty slot, so a key 0 lives beside the array. Keys are mixed
// (murmur3's finalizer) before probing: the key hashes of small test tables cluster.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice {

template <typename V>
class IntHashMap {
 public:
  size_t size() const { return size_ + (has_zero_ ? 1 : 0); }
  bool empty() const { return size() == 0; }

  // Makes room for `n` entries without rehashing.
  void Reserve(size_t n) {
    size_t capacity = slots_.empty() ? kMinCapacity : slots_.size();
    while (n >= capacity / 4 * 3) capacity *= 2;
    if (capacity != slots_.size()) Rehash(capacity);
  }

  // The value of `key`, or null (valid until the next insert).
  const V* Find(int32_t key) const {
    if (key == 0) return has_zero_ ? &zero_value_ : nullptr;
    if (slots_.empty()) return nullptr;
    for (size_t i = Home(key);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == key) return &s.value;
      if (s.key == 0) return nullptr;
    }
  }

  // Maps `key` to `value` unless it is mapped already; whether it was inserted.
  bool Insert(int32_t key, V value) { return Upsert(key, value, /*replace=*/false); }
  // Starts loading the slot `key` probes first: a loop over many keys prefetches a few keys
  // ahead, so the cache misses of a table of millions of entries overlap.
  void Prefetch(int32_t key) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[Home(key)]);
  }
  // Maps `key` to `value`, replacing its value (Java Map.put).
  void Put(int32_t key, V value) { Upsert(key, value, /*replace=*/true); }

 private:
  static constexpr size_t kMinCapacity = 16;
  struct Slot {
    int32_t key = 0;
    [[no_unique_address]] V value{};
  };

  size_t Home(int32_t key) const {
    auto h = static_cast<uint32_t>(key);
    h ^= h >> 16;
    h *= 0x85ebca6bU;
    h ^= h >> 13;
    h *= 0xc2b2ae35U;
    h ^= h >> 16;
    return h & mask_;
  }

  bool Upsert(int32_t key, V value, bool replace) {
    if (key == 0) {
      const bool inserted = !has_zero_;
      if (inserted || replace) zero_value_ = value;
      has_zero_ = true;
      return inserted;
    }
    if (slots_.empty() || size_ + 1 > slots_.size() / 4 * 3) {
      Rehash(slots_.empty() ? kMinCapacity : slots_.size() * 2);
    }
    for (size_t i = Home(key);; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.key == key) {
        if (replace) s.value = value;
        return false;
      }
      if (s.key == 0) {
        s.key = key;
        s.value = value;
        ++size_;
        return true;
      }
    }
  }

  void Rehash(size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    mask_ = capacity - 1;
    for (const Slot& s : old) {
      if (s.key == 0) continue;
      size_t i = Home(s.key);
      while (slots_[i].key != 0) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;  // keys other than 0
  bool has_zero_ = false;
  V zero_value_{};
};

// Int2ShortHashMap: key hash -> bucket id.
using Int2ShortHashMap = IntHashMap<int16_t>;

// IntHashSet: the keys alone (slots of four bytes).
class IntHashSet {
 public:
  size_t size() const { return map_.size(); }
  void Reserve(size_t n) { map_.Reserve(n); }
  bool Contains(int32_t key) const { return map_.Find(key) != nullptr; }
  // Whether `key` was new.
  bool Add(int32_t key) { return map_.Insert(key, {}); }
  void Prefetch(int32_t key) const { map_.Prefetch(key); }

 private:
  struct NoValue {};
  IntHashMap<NoValue> map_;
};

}  // namespace sluice
