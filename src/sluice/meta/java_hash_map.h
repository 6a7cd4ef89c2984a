// JavaHashMap: the iteration order of a java.util.HashMap<String, String>, so that schema files
// list their options in the order Java writes them.
//
// Java keeps a schema's options in HashMaps (Schema, SchemaManager.generateTableSchema,
// SchemaSerializer) and Jackson writes them in iteration order: by bucket
// (spread(String.hashCode()) & (capacity - 1)), then by insertion into the bucket. The capacity
// depends on the map's history (initial sizing of a copy, doublings at 3/4 load, the resize a
// long bucket forces below 64 buckets), so the emulation replays that history: Put, Remove and
// the copy constructor behave as java.util.HashMap does (JDK 8+). Tree bins (8+ entries in one
// bucket of a 64+ table) keep list order here; option maps never get there.
//
// Thread safety: a value type; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice {

class JavaHashMap {
 public:
  using Entries = std::vector<std::pair<std::string, std::string>>;

  // new HashMap<>().
  JavaHashMap() = default;
  // new HashMap<>(other): sized for other's entries, filled in other's iteration order.
  static JavaHashMap CopyOf(const JavaHashMap& other);
  // new HashMap<>() then put() of every entry in order (e.g. a JSON object read in file order).
  static JavaHashMap FromPuts(const Entries& entries);

  // put(): a new key goes to the end of its bucket; an existing key keeps its place.
  void Put(std::string key, std::string value);
  // remove(); true if the key was present.
  bool Remove(std::string_view key);
  // get(), or nullptr.
  const std::string* Get(std::string_view key) const;
  bool Contains(std::string_view key) const { return Get(key) != nullptr; }
  size_t size() const { return size_; }

  // The entries in Java's iteration order.
  Entries IterationOrder() const;

 private:
  struct Node {
    int32_t hash;
    std::string key;
    std::string value;
  };

  static int32_t Spread(int32_t h) {
    auto u = static_cast<uint32_t>(h);
    return static_cast<int32_t>(u ^ (u >> 16));
  }
  void Resize();
  size_t Index(int32_t hash) const {
    return static_cast<size_t>(static_cast<uint32_t>(hash)) & (table_.size() - 1);
  }

  std::vector<std::vector<Node>> table_;  // empty until the first put
  int32_t threshold_ = 0;
  size_t size_ = 0;
};

}  // namespace sluice
