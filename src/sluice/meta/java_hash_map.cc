#include "sluice/meta/java_hash_map.h"

#include "sluice/base/java_string_hash.h"

namespace sluice {

namespace {

constexpr int32_t kDefaultCapacity = 16;
constexpr int32_t kMaximumCapacity = 1 << 30;
constexpr float kLoadFactor = 0.75f;
constexpr size_t kTreeifyThreshold = 8;
constexpr size_t kMinTreeifyCapacity = 64;

// HashMap.tableSizeFor: the smallest power of two >= cap.
int32_t TableSizeFor(int32_t cap) {
  int32_t n = 1;
  while (n < cap && n < kMaximumCapacity) n <<= 1;
  return n;
}

}  // namespace

JavaHashMap JavaHashMap::CopyOf(const JavaHashMap& other) {
  JavaHashMap map;
  const size_t s = other.size_;
  if (s > 0) {
    // HashMap.putMapEntries on an empty table: size for s entries at the load factor.
    const float ft = static_cast<float>(s) / kLoadFactor + 1.0f;
    const int32_t t =
        ft < static_cast<float>(kMaximumCapacity) ? static_cast<int32_t>(ft) : kMaximumCapacity;
    if (t > map.threshold_) map.threshold_ = TableSizeFor(t);
    for (const auto& [key, value] : other.IterationOrder()) map.Put(key, value);
  }
  return map;
}

JavaHashMap JavaHashMap::FromPuts(const Entries& entries) {
  JavaHashMap map;
  for (const auto& [key, value] : entries) map.Put(key, value);
  return map;
}

void JavaHashMap::Resize() {
  const auto old_cap = static_cast<int32_t>(table_.size());
  const int32_t old_thr = threshold_;
  int32_t new_cap = 0;
  int32_t new_thr = 0;
  if (old_cap > 0) {
    if (old_cap >= kMaximumCapacity) {
      threshold_ = INT32_MAX;
      return;
    }
    new_cap = old_cap << 1;
    if (new_cap < kMaximumCapacity && old_cap >= kDefaultCapacity) new_thr = old_thr << 1;
  } else if (old_thr > 0) {
    new_cap = old_thr;
  } else {
    new_cap = kDefaultCapacity;
    new_thr = static_cast<int32_t>(kDefaultCapacity * kLoadFactor);
  }
  if (new_thr == 0) {
    const float ft = static_cast<float>(new_cap) * kLoadFactor;
    new_thr = new_cap < kMaximumCapacity && ft < static_cast<float>(kMaximumCapacity)
                  ? static_cast<int32_t>(ft)
                  : INT32_MAX;
  }
  threshold_ = new_thr;
  std::vector<std::vector<Node>> old = std::move(table_);
  table_.assign(static_cast<size_t>(new_cap), {});
  // Each old bucket splits into a low and a high bucket, keeping its order.
  for (auto& bucket : old) {
    for (Node& node : bucket) table_[Index(node.hash)].push_back(std::move(node));
  }
}

void JavaHashMap::Put(std::string key, std::string value) {
  const int32_t hash = Spread(JavaStringHash(key));
  if (table_.empty()) Resize();
  std::vector<Node>& bucket = table_[Index(hash)];
  for (Node& node : bucket) {
    if (node.hash == hash && node.key == key) {
      node.value = std::move(value);
      return;
    }
  }
  bucket.push_back(Node{hash, std::move(key), std::move(value)});
  // Appending to a bucket that held 8 entries treeifies it, which below 64 buckets means a
  // resize instead (HashMap.putVal / treeifyBin).
  if (bucket.size() > kTreeifyThreshold && table_.size() < kMinTreeifyCapacity) {
    Resize();
  }
  if (static_cast<int64_t>(++size_) > threshold_) Resize();
}

bool JavaHashMap::Remove(std::string_view key) {
  if (table_.empty()) return false;
  const int32_t hash = Spread(JavaStringHash(key));
  std::vector<Node>& bucket = table_[Index(hash)];
  for (size_t i = 0; i < bucket.size(); ++i) {
    if (bucket[i].hash == hash && bucket[i].key == key) {
      bucket.erase(bucket.begin() + static_cast<std::ptrdiff_t>(i));
      --size_;
      return true;
    }
  }
  return false;
}

const std::string* JavaHashMap::Get(std::string_view key) const {
  if (table_.empty()) return nullptr;
  const int32_t hash = Spread(JavaStringHash(key));
  for (const Node& node : table_[Index(hash)]) {
    if (node.hash == hash && node.key == key) return &node.value;
  }
  return nullptr;
}

JavaHashMap::Entries JavaHashMap::IterationOrder() const {
  Entries out;
  out.reserve(size_);
  for (const auto& bucket : table_) {
    for (const Node& node : bucket) out.emplace_back(node.key, node.value);
  }
  return out;
}

}  // namespace sluice
