#include "sluice/lsm/lookup/lookup_levels.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "sluice/base/coding.h"
#include "sluice/lsm/lookup/key_head.h"
#include "sluice/lsm/lookup/sort_lookup_store_writer.h"
#include "sluice/row/binary_row.h"

namespace sluice {
namespace {

std::vector<int> Iota(int n) {
  std::vector<int> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

std::vector<DataTypePtr> TypesOf(const DataType& row, const std::vector<int>& columns) {
  std::vector<DataTypePtr> types;
  for (int c : columns) types.push_back(row.fields()[static_cast<size_t>(c)].type);
  return types;
}

int LevelOf(const SortedRun& run) { return run.files().front()->meta.level; }

}  // namespace

LookupLevels::LookupLevels(DataTypePtr key_type, DataTypePtr record_type, DataTypePtr value_type,
                           std::vector<int> key_columns, KeyValueMergeOrder key_order,
                           LookupFileReaderFactory reader_factory,
                           std::shared_ptr<LookupFileCache> cache, Options options)
    : key_type_(std::move(key_type)),
      record_type_(std::move(record_type)),
      value_type_(std::move(value_type)),
      key_columns_(std::move(key_columns)),
      key_order_(std::move(key_order)),
      reader_factory_(std::move(reader_factory)),
      cache_(std::move(cache)),
      options_(options),
      key_encoder_(key_columns_, TypesOf(*record_type_, key_columns_)),
      value_encoder_(Iota(value_type_->num_fields()),
                     TypesOf(*record_type_, Iota(value_type_->num_fields()))) {}

LookupLevels::~LookupLevels() = default;

Result<std::unique_ptr<LookupLevels>> LookupLevels::Make(
    DataTypePtr key_type, DataTypePtr record_type, std::vector<int> key_columns,
    KeyValueMergeOrder key_order, LookupFileReaderFactory reader_factory,
    std::shared_ptr<LookupFileCache> cache, Options options) {
  const int num_values = record_type->num_fields() - 2;
  if (num_values < 1 || key_columns.size() != static_cast<size_t>(key_type->num_fields())) {
    return Status::InvalidArgument("lookup levels: record type " + record_type->ToString() +
                                   " does not fit key type " + key_type->ToString());
  }
  for (size_t k = 0; k < key_columns.size(); ++k) {
    const int c = key_columns[k];
    if (c < 0 || c >= num_values ||
        !record_type->fields()[static_cast<size_t>(c)].type->EqualsIgnoreNullable(
            *key_type->fields()[k].type)) {
      return Status::InvalidArgument("lookup levels: key field " + key_type->fields()[k].name +
                                     " is not value column " + std::to_string(c));
    }
  }
  std::vector<DataField> value_fields(record_type->fields().begin(),
                                      record_type->fields().begin() + num_values);
  DataTypePtr value_type = DataType::Row(std::move(value_fields));
  return std::unique_ptr<LookupLevels>(new LookupLevels(
      std::move(key_type), std::move(record_type), std::move(value_type), std::move(key_columns),
      std::move(key_order), std::move(reader_factory), std::move(cache), options));
}

void LookupLevels::SetRuns(std::vector<SortedRun> runs) {
  std::set<std::string> kept;
  for (const SortedRun& run : runs) {
    for (const LevelFilePtr& file : run.files()) kept.insert(file->meta.file_name);
  }
  for (const SortedRun& run : runs_) {
    for (const LevelFilePtr& file : run.files()) {
      if (kept.count(file->meta.file_name) == 0) cache_->Invalidate(file->meta.file_name);
    }
  }
  runs_.clear();
  for (SortedRun& run : runs) {
    if (!run.empty()) runs_.push_back(std::move(run));
  }
}

void LookupLevels::SetRuns(const std::vector<LevelSortedRun>& runs) {
  std::vector<SortedRun> plain;
  for (const LevelSortedRun& run : runs) plain.push_back(run.run);
  SetRuns(std::move(plain));
}

const LevelFile* LookupLevels::FileOf(const SortedRun& run, const ValueList& key) const {
  const std::vector<LevelFilePtr>& files = run.files();
  // The first file whose max key is not below the key.
  auto it = std::lower_bound(files.begin(), files.end(), key,
                             [this](const LevelFilePtr& f, const ValueList& k) {
                               return key_order_.CompareKeys(f->max_key, k) < 0;
                             });
  if (it == files.end() || key_order_.CompareKeys((*it)->min_key, key) > 0) return nullptr;
  return it->get();
}

Result<std::optional<PositionedKeyValue>> LookupLevels::Lookup(const ValueList& key,
                                                               int start_level) {
  SLUICE_ASSIGN_OR_RETURN(key_bytes_, EncodeBinaryRow(key, *key_type_));
  return Lookup(key, key_bytes_, start_level);
}

Result<std::optional<PositionedKeyValue>> LookupLevels::Lookup(const ValueList& key,
                                                               std::string_view key_bytes,
                                                               int start_level) {
  hits_.clear();
  SLUICE_RETURN_NOT_OK(LookupRuns(key, key_bytes, start_level, /*all=*/false, &hits_));
  if (hits_.empty()) return std::optional<PositionedKeyValue>();
  return std::optional<PositionedKeyValue>(std::move(hits_.front()));
}

Result<std::vector<PositionedKeyValue>> LookupLevels::LookupAll(const ValueList& key,
                                                                int start_level) {
  SLUICE_ASSIGN_OR_RETURN(key_bytes_, EncodeBinaryRow(key, *key_type_));
  std::vector<PositionedKeyValue> out;
  SLUICE_RETURN_NOT_OK(LookupRuns(key, key_bytes_, start_level, /*all=*/true, &out));
  return out;
}

Status LookupLevels::LookupRuns(const ValueList& key, std::string_view key_bytes, int start_level,
                                bool all, std::vector<PositionedKeyValue>* out) {
  for (const SortedRun& run : runs_) {
    const int level = LevelOf(run);
    if (level < start_level) continue;
    const LevelFile* file = FileOf(run, key);
    if (file == nullptr) continue;
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<LookupFile> lookup_file,
                            GetOrCreateLookupFile(file->meta));
    std::string_view value;
    SLUICE_ASSIGN_OR_RETURN(bool found, lookup_file->Get(key_bytes, &value));
    if (!found) continue;
    SLUICE_ASSIGN_OR_RETURN(PositionedKeyValue kv, Decode(key, value, *file, level));
    out->push_back(std::move(kv));
    if (!all) break;
  }
  return Status::OK();
}

Result<PositionedKeyValue> LookupLevels::Decode(const ValueList& key, std::string_view value,
                                                const LevelFile& file, int level) const {
  auto corrupt = [&file]() {
    return Status::Corruption("lookup file of data file " + file.meta.file_name +
                              ": a value does not decode");
  };
  const auto* p = reinterpret_cast<const uint8_t*>(value.data());
  const uint8_t* limit = p + value.size();
  uint64_t sequence = 0;
  uint64_t position = 0;
  if (!GetVarint64(&p, limit, &sequence) || p >= limit) return corrupt();
  const uint8_t kind = *p++;
  if (kind > 3 || !GetVarint64(&p, limit, &position)) return corrupt();
  PositionedKeyValue out;
  out.key_value.key = key;
  out.key_value.sequence_number = static_cast<int64_t>(sequence);
  out.key_value.kind = static_cast<RowKind>(kind);
  out.key_value.level = level;
  out.file_name = file.meta.file_name;
  out.row_position = static_cast<int64_t>(position);
  if (options_.persist_value) {
    Result<ValueList> row = DecodeBinaryRow(
        std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(limit - p)),
        *value_type_);
    if (!row.ok()) return corrupt();
    out.key_value.value = std::move(row).value();
  }
  return out;
}

Result<std::shared_ptr<LookupFile>> LookupLevels::GetOrCreateLookupFile(const DataFileMeta& file) {
  std::shared_ptr<LookupFile> cached = cache_->Get(file.file_name);
  if (cached != nullptr) return cached;
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<LookupFile> created, CreateLookupFile(file));
  cache_->Put(file.file_name, created);
  return created;
}

Result<std::shared_ptr<LookupFile>> LookupLevels::CreateLookupFile(const DataFileMeta& file) {
  const std::string local_path = cache_->NewLocalPath(file.file_name);
  Status st = WriteLookupFile(file, local_path);
  if (!st.ok()) {
    // The write's error is the one to report; a local file left behind goes with the cache's
    // directory.
    cache_->io()->Delete(local_path, /*recursive=*/false).IgnoreError();
    return st;
  }
  Result<std::unique_ptr<SortLookupStoreReader>> reader =
      SortLookupStoreReader::Open(cache_->io().get(), local_path, cache_->cache_manager());
  if (!reader.ok()) {
    // As above: the open's error is the one to report.
    cache_->io()->Delete(local_path, /*recursive=*/false).IgnoreError();
    return reader.status();
  }
  return std::make_shared<LookupFile>(cache_->io(), local_path, std::move(reader).value());
}

Status LookupLevels::WriteLookupFile(const DataFileMeta& file, const std::string& local_path) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SortedRunReader> reader, reader_factory_(file));
  // Records come in key order, keys are stored in bytewise order of their BinaryRow bytes:
  // entries are gathered, then sorted. The sort compares each entry's KeyHeadOf (after the
  // prefix all keys share) held in the entry, and reads the keys only on a tie: comparing
  // through the offsets would miss the cache on every comparison of a large file.
  std::string keys;
  std::string values;
  struct Entry {
    uint64_t head;
    size_t key_offset;
    size_t value_offset;
    uint32_t key_size;
    uint32_t value_size;
  };
  std::vector<Entry> entries;
  entries.reserve(static_cast<size_t>(std::max<int64_t>(file.row_count, 0)));
  ColumnBatch batch(record_type_);
  const int num_values = value_type_->num_fields();
  int64_t position = 0;
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    const int64_t* sequences = batch.column(num_values)->data<int64_t>();
    const int8_t* kinds = batch.column(num_values + 1)->data<int8_t>();
    for (int64_t row = 0; row < batch.num_rows(); ++row, ++position) {
      SLUICE_ASSIGN_OR_RETURN(std::string_view key, key_encoder_.Encode(batch, row));
      Entry entry{0, keys.size(), values.size(), static_cast<uint32_t>(key.size()), 0};
      keys.append(key);
      PutVarint64(&values, static_cast<uint64_t>(sequences[row]));
      values.push_back(static_cast<char>(kinds[row]));
      PutVarint64(&values, static_cast<uint64_t>(position));
      if (options_.persist_value) {
        SLUICE_ASSIGN_OR_RETURN(std::string_view row_bytes, value_encoder_.Encode(batch, row));
        values.append(row_bytes);
      }
      entry.value_size = static_cast<uint32_t>(values.size() - entry.value_offset);
      entries.push_back(entry);
    }
  }
  auto key_of = [&keys](const Entry& e) {
    return std::string_view(keys.data() + e.key_offset, e.key_size);
  };
  size_t common = entries.empty() ? 0 : entries.front().key_size;
  for (const Entry& e : entries) {
    common = std::min(common, CommonPrefixLength(key_of(entries.front()), key_of(e)));
  }
  for (Entry& e : entries) e.head = KeyHeadOf(key_of(e), common);
  std::sort(entries.begin(), entries.end(), [&key_of](const Entry& a, const Entry& b) {
    return a.head != b.head ? a.head < b.head : key_of(a) < key_of(b);
  });
  for (size_t i = 1; i < entries.size(); ++i) {
    if (key_of(entries[i - 1]) == key_of(entries[i])) {
      return Status::Corruption("data file " + file.file_name +
                                " holds a key twice; it is not a sorted run");
    }
  }
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<SortLookupStoreWriter> writer,
      SortLookupStoreWriter::Create(cache_->io().get(), local_path, cache_->options(),
                                    static_cast<int64_t>(entries.size())));
  // In sorted order the entries' bytes are read at random: fetching a few entries ahead hides
  // the cache misses behind the writer's work.
  constexpr size_t kPrefetchAhead = 8;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i + kPrefetchAhead < entries.size()) {
      const Entry& ahead = entries[i + kPrefetchAhead];
      __builtin_prefetch(keys.data() + ahead.key_offset);
      __builtin_prefetch(values.data() + ahead.value_offset);
    }
    const Entry& e = entries[i];
    SLUICE_RETURN_NOT_OK(
        writer->Put(key_of(e), std::string_view(values.data() + e.value_offset, e.value_size)));
  }
  return writer->Close();
}

}  // namespace sluice
