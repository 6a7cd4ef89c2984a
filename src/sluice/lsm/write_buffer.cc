#include "sluice/lsm/write_buffer.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <utility>

#include "sluice/batch/column_take.h"

namespace sluice {

namespace {

// Rows per batch handed to the consumer.
constexpr size_t kOutputBatchRows = 4096;
// Per-row bookkeeping besides the column data: sequence number, kind, sort index.
constexpr int64_t kRowOverhead = sizeof(int64_t) + sizeof(RowKind) + sizeof(uint32_t);

int64_t BufferBytes(const ColumnVector& v) {
  int64_t n = static_cast<int64_t>(v.values().capacity() + v.offsets().capacity() +
                                   v.validity().capacity());
  for (int i = 0; i < v.num_children(); ++i) n += BufferBytes(*v.child(i));
  return n;
}

}  // namespace

WriteBuffer::WriteBuffer(DataTypePtr row_type, std::vector<int> key_columns,
                         std::vector<int> sequence_columns, bool sequence_ascending,
                         DataTypePtr key_value_type, bool last_record_wins)
    : row_type_(row_type),
      key_columns_(key_columns),
      key_comparator_(std::move(key_columns)),
      sequence_comparator_(std::move(sequence_columns), sequence_ascending),
      key_value_type_(std::move(key_value_type)),
      last_record_wins_(last_record_wins),
      rows_(std::move(row_type)) {}

void WriteBuffer::Put(const ColumnBatch& batch, const int64_t* rows, int64_t n,
                      const RowKind* kinds, int64_t first_sequence_number) {
  for (int c = 0; c < batch.num_columns(); ++c)
    TakeRows(*batch.column(c), rows, n, rows_.column(c));
  rows_.set_num_rows(rows_.num_rows() + n);
  for (int64_t i = 0; i < n; ++i) {
    sequence_numbers_.push_back(first_sequence_number + i);
    kinds_.push_back(kinds == nullptr ? RowKind::kInsert : kinds[rows[i]]);
  }
}

int64_t WriteBuffer::memory_usage() const {
  int64_t n = 0;
  for (int c = 0; c < rows_.num_columns(); ++c) n += BufferBytes(*rows_.column(c));
  return n + size() * kRowOverhead;
}

void WriteBuffer::Clear() {
  rows_ = ColumnBatch(row_type_);
  sequence_numbers_ = {};
  kinds_ = {};
}

std::vector<uint32_t> WriteBuffer::SortedByBytes(const ColumnVector& key) const {
  // Each key's first eight bytes as a big-endian number (zero-padded) decide most comparisons
  // without a call to memcmp; equal prefixes fall back to the whole bytes (unsigned, a prefix
  // before a longer key: CompareColumnRows's order), then the row index.
  struct Keyed {
    uint64_t prefix;
    std::string_view bytes;
    uint32_t row;
  };
  const size_t n = sequence_numbers_.size();
  std::vector<Keyed> keyed(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string_view bytes = key.GetBytes(static_cast<int64_t>(i));
    uint64_t prefix = 0;
    const size_t take = std::min<size_t>(bytes.size(), sizeof(prefix));
    for (size_t b = 0; b < take; ++b) {
      prefix |= uint64_t{static_cast<unsigned char>(bytes[b])} << (56 - 8 * b);
    }
    keyed[i] = {prefix, bytes, static_cast<uint32_t>(i)};
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    const int c = a.bytes.compare(b.bytes);
    return c != 0 ? c < 0 : a.row < b.row;
  });
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = keyed[i].row;
  return order;
}

std::vector<uint32_t> WriteBuffer::SortedOrder() const {
  const size_t n = sequence_numbers_.size();
  std::vector<uint32_t> order(n);
  // Rows arrive in sequence-number order, so among equal keys (and equal sequence fields) the
  // row index orders like the sequence number.
  if (key_columns_.size() == 1 && sequence_comparator_.empty()) {
    const ColumnVector& key = *rows_.column(key_columns_[0]);
    if (!key.has_nulls() &&
        (key.kind() == PhysicalKind::kInt64 || key.kind() == PhysicalKind::kInt32)) {
      std::vector<std::pair<int64_t, uint32_t>> keyed(n);
      for (size_t i = 0; i < n; ++i) {
        const int64_t k =
            key.kind() == PhysicalKind::kInt64 ? key.data<int64_t>()[i] : key.data<int32_t>()[i];
        keyed[i] = {k, static_cast<uint32_t>(i)};
      }
      std::sort(keyed.begin(), keyed.end());
      for (size_t i = 0; i < n; ++i) order[i] = keyed[i].second;
      return order;
    }
    if (!key.has_nulls() && key.kind() == PhysicalKind::kBytes) return SortedByBytes(key);
  }
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    int c = key_comparator_.Compare(rows_, a, rows_, b);
    if (c == 0) c = sequence_comparator_.Compare(rows_, a, rows_, b);
    return c != 0 ? c < 0 : a < b;
  });
  return order;
}

KeyValue WriteBuffer::ToKeyValue(uint32_t row) const {
  KeyValue kv;
  kv.key.reserve(key_columns_.size());
  for (int c : key_columns_) kv.key.push_back(rows_.column(c)->GetValue(row));
  kv.value.reserve(static_cast<size_t>(rows_.num_columns()));
  for (int c = 0; c < rows_.num_columns(); ++c) kv.value.push_back(rows_.column(c)->GetValue(row));
  kv.sequence_number = sequence_numbers_[row];
  kv.kind = kinds_[row];
  return kv;
}

void WriteBuffer::AppendRecords(const int64_t* rows, int64_t n, ColumnBatch* out) const {
  const int k = static_cast<int>(key_columns_.size());
  for (int i = 0; i < k; ++i) TakeRows(*rows_.column(key_columns_[i]), rows, n, out->column(i));
  ColumnVector* seq = out->column(k);
  ColumnVector* kind = out->column(k + 1);
  for (int64_t i = 0; i < n; ++i) {
    seq->AppendFixed<int64_t>(sequence_numbers_[rows[i]]);
    kind->AppendFixed<int8_t>(static_cast<int8_t>(RowKindToByte(kinds_[rows[i]])));
  }
  for (int c = 0; c < rows_.num_columns(); ++c) {
    TakeRows(*rows_.column(c), rows, n, out->column(k + 2 + c));
  }
  out->set_num_rows(out->num_rows() + n);
}

Status WriteBuffer::ForEach(MergeFunction* merge_function, const Consumer& consumer,
                            const Consumer& raw_consumer) {
  const std::vector<uint32_t> order = SortedOrder();
  const int k = static_cast<int>(key_columns_.size());
  ColumnBatch out(key_value_type_);
  // Rows copied as they are (keys with a single record), in output order, not yet in `out`.
  std::vector<int64_t> takes;
  takes.reserve(kOutputBatchRows);

  if (raw_consumer) {
    for (size_t begin = 0; begin < order.size(); begin += kOutputBatchRows) {
      const size_t end = std::min(order.size(), begin + kOutputBatchRows);
      takes.assign(order.begin() + static_cast<std::ptrdiff_t>(begin),
                   order.begin() + static_cast<std::ptrdiff_t>(end));
      AppendRecords(takes.data(), static_cast<int64_t>(takes.size()), &out);
      SLUICE_RETURN_NOT_OK(raw_consumer(out));
      out.Clear();
    }
    takes.clear();
  }

  auto flush_takes = [&]() {
    if (takes.empty()) return;
    AppendRecords(takes.data(), static_cast<int64_t>(takes.size()), &out);
    takes.clear();
  };
  auto emit = [&]() -> Status {
    flush_takes();
    if (out.num_rows() == 0) return Status::OK();
    SLUICE_RETURN_NOT_OK(consumer(out));
    out.Clear();
    return Status::OK();
  };

  size_t i = 0;
  while (i < order.size()) {
    size_t j = i + 1;
    while (j < order.size() && key_comparator_.Compare(rows_, order[i], rows_, order[j]) == 0) ++j;
    if (j == i + 1 || last_record_wins_) {
      takes.push_back(order[j - 1]);
    } else {
      merge_function->Reset();
      for (size_t x = i; x < j; ++x)
        SLUICE_RETURN_NOT_OK(merge_function->Add(ToKeyValue(order[x])));
      std::optional<KeyValue> merged = merge_function->GetResultKeepingDeletes();
      if (merged) {
        flush_takes();
        for (int c = 0; c < k; ++c)
          SLUICE_RETURN_NOT_OK(out.column(c)->AppendValue(merged->key[c]));
        out.column(k)->AppendFixed<int64_t>(merged->sequence_number);
        out.column(k + 1)->AppendFixed<int8_t>(static_cast<int8_t>(RowKindToByte(merged->kind)));
        for (size_t c = 0; c < merged->value.size(); ++c) {
          SLUICE_RETURN_NOT_OK(
              out.column(k + 2 + static_cast<int>(c))->AppendValue(merged->value[c]));
        }
        out.set_num_rows(out.num_rows() + 1);
      }
    }
    if (takes.size() + static_cast<size_t>(out.num_rows()) >= kOutputBatchRows) {
      SLUICE_RETURN_NOT_OK(emit());
    }
    i = j;
  }
  return emit();
}

}  // namespace sluice
