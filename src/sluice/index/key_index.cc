#include "sluice/index/key_index.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "sluice/base/murmur_hash.h"

namespace sluice {

namespace {

constexpr size_t kMaxInitialSlots = 1024;
constexpr size_t kMinSlots = 16;
// Grow at 70% full: probes stay short without doubling memory too early.
constexpr uint64_t kMaxLoadPercent = 70;
constexpr int64_t kMinBlockCacheBytes = int64_t{8} << 20;

rocksdb::Options RocksOptions(const std::shared_ptr<rocksdb::Cache>& cache) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  // Keys are primary keys and locations: small, random, barely compressible.
  options.compression = rocksdb::kNoCompression;
  options.info_log_level = rocksdb::WARN_LEVEL;
  options.keep_log_file_num = 1;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  // Most lookups of a growing key set are of new keys: bloom filters answer them.
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

Status FromRocks(const rocksdb::Status& st, const std::string& what) {
  if (st.ok()) return Status::OK();
  return Status::IOError(what + ": " + st.ToString());
}

uint32_t HashOf(std::string_view key) {
  return static_cast<uint32_t>(
      MurmurHashBytes(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
}

}  // namespace

KeyIndex::KeyIndex(KeyIndexOptions options, int64_t memory_tier_bytes)
    : options_(std::move(options)), memory_tier_bytes_(memory_tier_bytes) {}

KeyIndex::~KeyIndex() {
  db_.reset();
  std::error_code ignored;  // a temporary directory: nothing to report to
  std::filesystem::remove_all(options_.directory, ignored);
}

Result<std::unique_ptr<KeyIndex>> KeyIndex::Open(KeyIndexOptions options) {
  if (options.memory_bytes <= 0) {
    return Status::InvalidArgument("the key index needs a positive memory budget, not " +
                                   std::to_string(options.memory_bytes) + " bytes");
  }
  std::error_code ec;
  if (!std::filesystem::create_directories(options.directory, ec)) {
    return Status::IOError("cannot create the key index directory " + options.directory + ": " +
                           (ec ? ec.message() : "it exists already"));
  }
  // Arena offsets are 32-bit: the memory tier stays below 4 GiB.
  const int64_t memory_tier = std::min<int64_t>(options.memory_bytes / 4 * 3, int64_t{0xFFFFFFF0});
  std::unique_ptr<KeyIndex> index(new KeyIndex(std::move(options), memory_tier));
  // At most half the memory tier starts as slots: the rest holds keys.
  size_t slots = kMaxInitialSlots;
  while (slots > kMinSlots && static_cast<int64_t>(slots * sizeof(Slot)) > memory_tier / 2)
    slots /= 2;
  index->slots_.assign(slots, Slot{0, kEmptySlot, {}});
  SLUICE_RETURN_NOT_OK(index->OpenRocksDb());
  return index;
}

Status KeyIndex::OpenRocksDb() {
  block_cache_ = rocksdb::NewLRUCache(
      static_cast<size_t>(std::max(kMinBlockCacheBytes, options_.memory_bytes / 4)));
  rocksdb::DB* db = nullptr;
  const std::string path = options_.directory + "/rocksdb";
  SLUICE_RETURN_NOT_OK(FromRocks(rocksdb::DB::Open(RocksOptions(block_cache_), path, &db),
                                 "opening the key index at " + path));
  db_.reset(db);
  return Status::OK();
}

int64_t KeyIndex::NowMillis() const {
  if (options_.clock_millis) return options_.clock_millis();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool KeyIndex::Expired(int64_t written_millis) const {
  return options_.ttl_millis && NowMillis() > written_millis + *options_.ttl_millis;
}

std::string_view KeyIndex::KeyAt(uint32_t offset) const {
  uint32_t size = 0;
  std::memcpy(&size, arena_.data() + offset, sizeof(size));
  return std::string_view(arena_.data() + offset + sizeof(size), size);
}

int64_t KeyIndex::WrittenAt(uint32_t offset) const {
  const std::string_view key = KeyAt(offset);
  int64_t millis = 0;
  std::memcpy(&millis, key.data() + key.size(), sizeof(millis));
  return millis;
}

KeyIndex::Slot* KeyIndex::Probe(std::string_view key, uint32_t hash) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.offset == kEmptySlot) return &slot;
    if (slot.hash == hash && KeyAt(slot.offset) == key) return &slot;
  }
}

Result<std::optional<KeyLocation>> KeyIndex::Get(std::string_view key) {
  const Slot* slot = Probe(key, HashOf(key));
  if (slot->offset != kEmptySlot) {
    if (options_.ttl_millis && Expired(WrittenAt(slot->offset))) {
      return std::optional<KeyLocation>();
    }
    return std::optional<KeyLocation>(slot->location);
  }
  if (spilled_keys_ == 0) return std::optional<KeyLocation>();
  rocksdb::Status st =
      db_->Get(rocksdb::ReadOptions(), rocksdb::Slice(key.data(), key.size()), &value_scratch_);
  if (st.IsNotFound()) return std::optional<KeyLocation>();
  SLUICE_RETURN_NOT_OK(FromRocks(st, "reading the key index at " + options_.directory));
  KeyLocation location;
  int64_t written = 0;
  if (value_scratch_.size() != sizeof(location) + sizeof(written)) {
    return Status::Corruption("the key index at " + options_.directory + " holds a value of " +
                              std::to_string(value_scratch_.size()) + " bytes");
  }
  std::memcpy(&location, value_scratch_.data(), sizeof(location));
  std::memcpy(&written, value_scratch_.data() + sizeof(location), sizeof(written));
  if (Expired(written)) return std::optional<KeyLocation>();
  return std::optional<KeyLocation>(location);
}

Status KeyIndex::Put(std::string_view key, KeyLocation location) {
  const uint32_t hash = HashOf(key);
  Slot* slot = Probe(key, hash);
  const bool with_time = options_.ttl_millis.has_value();
  if (slot->offset != kEmptySlot) {
    slot->location = location;
    if (with_time) {
      const int64_t now = NowMillis();
      std::memcpy(arena_.data() + slot->offset + sizeof(uint32_t) + key.size(), &now, sizeof(now));
    }
    return Status::OK();
  }
  if ((static_cast<uint64_t>(memory_keys_) + 1) * 100 > slots_.size() * kMaxLoadPercent ||
      static_cast<int64_t>(slots_.size() * sizeof(Slot) + arena_.size() + key.size()) + 24 >
          memory_tier_bytes_) {
    SLUICE_RETURN_NOT_OK(MakeRoom(key.size()));
    slot = Probe(key, hash);
  }
  const uint32_t offset = static_cast<uint32_t>(arena_.size());
  const uint32_t size = static_cast<uint32_t>(key.size());
  arena_.append(reinterpret_cast<const char*>(&size), sizeof(size));
  arena_.append(key.data(), key.size());
  if (with_time) {
    const int64_t now = NowMillis();
    arena_.append(reinterpret_cast<const char*>(&now), sizeof(now));
  }
  *slot = Slot{hash, offset, location};
  ++memory_keys_;
  return Status::OK();
}

Status KeyIndex::MakeRoom(size_t key_size) {
  const int64_t doubled = static_cast<int64_t>(slots_.size() * 2 * sizeof(Slot));
  const bool full =
      (static_cast<uint64_t>(memory_keys_) + 1) * 100 > slots_.size() * kMaxLoadPercent;
  if (full && doubled + static_cast<int64_t>(arena_.size() + key_size) + 24 <= memory_tier_bytes_) {
    return Grow();
  }
  return Spill();
}

Status KeyIndex::Grow() {
  std::vector<Slot> old(slots_.size() * 2, Slot{0, kEmptySlot, {}});
  old.swap(slots_);
  const size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.offset == kEmptySlot) continue;
    size_t i = slot.hash & mask;
    while (slots_[i].offset != kEmptySlot) i = (i + 1) & mask;
    slots_[i] = slot;
  }
  return Status::OK();
}

Status KeyIndex::Spill() {
  if (memory_keys_ == 0) return Status::OK();
  std::vector<const Slot*> sorted;
  sorted.reserve(static_cast<size_t>(memory_keys_));
  for (const Slot& slot : slots_) {
    if (slot.offset != kEmptySlot) sorted.push_back(&slot);
  }
  // RocksDB's bytewise order.
  std::sort(sorted.begin(), sorted.end(),
            [this](const Slot* a, const Slot* b) { return KeyAt(a->offset) < KeyAt(b->offset); });
  const std::string file = options_.directory + "/spill-" + std::to_string(spills_) + ".sst";
  const rocksdb::Options options = RocksOptions(block_cache_);
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  SLUICE_RETURN_NOT_OK(FromRocks(writer.Open(file), "spilling the key index to " + file));
  const bool with_time = options_.ttl_millis.has_value();
  const int64_t now = NowMillis();
  char value[sizeof(KeyLocation) + sizeof(int64_t)];
  for (const Slot* slot : sorted) {
    const std::string_view key = KeyAt(slot->offset);
    const int64_t written = with_time ? WrittenAt(slot->offset) : now;
    std::memcpy(value, &slot->location, sizeof(KeyLocation));
    std::memcpy(value + sizeof(KeyLocation), &written, sizeof(written));
    SLUICE_RETURN_NOT_OK(FromRocks(
        writer.Put(rocksdb::Slice(key.data(), key.size()), rocksdb::Slice(value, sizeof(value))),
        "spilling the key index to " + file));
  }
  SLUICE_RETURN_NOT_OK(FromRocks(writer.Finish(), "spilling the key index to " + file));
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = true;
  SLUICE_RETURN_NOT_OK(
      FromRocks(db_->IngestExternalFile({file}, ingest), "loading the spilled key index " + file));
  spilled_keys_ += memory_keys_;
  ++spills_;
  std::fill(slots_.begin(), slots_.end(), Slot{0, kEmptySlot, {}});
  arena_.clear();
  memory_keys_ = 0;
  return Status::OK();
}

}  // namespace sluice
