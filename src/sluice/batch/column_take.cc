#include "sluice/batch/column_take.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "sluice/base/short_copy.h"

namespace sluice {

namespace {

void TakeValidity(const ColumnVector& in, const int64_t* rows, int64_t n, int64_t old,
                  ColumnVector* out) {
  if (!in.has_nulls()) return;
  uint8_t* validity = out->MutableValidity();
  const uint8_t* src = in.validity().data();
  for (int64_t i = 0; i < n; ++i) validity[old + i] = src[rows[i]];
}

// Appends the offsets of the taken rows and returns the child rows they cover, in order.
std::vector<int64_t> TakeOffsets(const ColumnVector& in, const int64_t* rows, int64_t n,
                                 int64_t old, ColumnVector* out) {
  std::vector<int64_t> child_rows;
  const int32_t* src = in.offset_data();
  int32_t* dst = out->offset_data();
  int32_t end = dst[old];
  for (int64_t i = 0; i < n; ++i) {
    const int32_t begin_in = src[rows[i]];
    const int32_t end_in = src[rows[i] + 1];
    for (int32_t c = begin_in; c < end_in; ++c) child_rows.push_back(c);
    end += end_in - begin_in;
    dst[old + i + 1] = end;
  }
  return child_rows;
}

// The end of the run of consecutive rows starting at rows[i]: the first j > i with
// rows[j] != rows[j - 1] + 1, or n.
int64_t RunEnd(const int64_t* rows, int64_t i, int64_t n) {
  int64_t j = i + 1;
  while (j < n && rows[j] == rows[j - 1] + 1) ++j;
  return j;
}

// Rows ahead of the copy whose values are prefetched. A gather in key order out of a write
// buffer's columns (the flush of a sorted run) misses the cache on nearly every row: the
// prefetches overlap those misses instead of waiting for each in turn.
constexpr int64_t kPrefetchAhead = 16;

// Values of `Width` bytes (a compile-time size, so that each copy is a move, not a call). Runs of
// consecutive rows (a merge of one sorted run, a filter keeping most rows) copy in one piece.
template <int Width>
void TakeFixed(const ColumnVector& in, const int64_t* rows, int64_t n, int64_t old,
               ColumnVector* out) {
  const uint8_t* src = in.values().data();
  uint8_t* dst = out->values().data() + old * Width;
  for (int64_t i = 0; i < n;) {
    if (i + kPrefetchAhead < n) __builtin_prefetch(src + rows[i + kPrefetchAhead] * Width);
    const int64_t end = RunEnd(rows, i, n);
    if (end - i > 1) {
      std::memcpy(dst + i * Width, src + rows[i] * Width, static_cast<size_t>((end - i) * Width));
    } else {
      std::memcpy(dst + i * Width, src + rows[i] * Width, Width);
    }
    i = end;
  }
}

// The bytes buffer grows once for all the taken values (a first pass over the offsets, which
// prefetches them for the second); runs of consecutive rows copy their bytes in one piece and
// shift their offsets.
void TakeBytes(const ColumnVector& in, const int64_t* rows, int64_t n, int64_t old,
               ColumnVector* out) {
  const int32_t* src = in.offset_data();
  const uint8_t* bytes = in.values().data();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i + kPrefetchAhead < n) __builtin_prefetch(src + rows[i + kPrefetchAhead]);
    total += src[rows[i] + 1] - src[rows[i]];
  }
  Buffer& values = out->values();
  const size_t base = values.size();
  values.Reserve(base + static_cast<size_t>(total) + kShortCopy);
  values.Resize(base + static_cast<size_t>(total));
  uint8_t* dst_bytes = values.data() + base;
  int32_t* dst = out->offset_data();
  // A run of empty strings may lie in a column with no bytes at all (null buffers): CopyShort
  // copies nothing for it unless the buffer has the room.
  const size_t readable = in.values().capacity();
  for (int64_t i = 0; i < n;) {
    if (i + kPrefetchAhead < n) __builtin_prefetch(bytes + src[rows[i + kPrefetchAhead]]);
    const int64_t end = RunEnd(rows, i, n);
    const int32_t begin = src[rows[i]];
    const int32_t length = src[rows[end - 1] + 1] - begin;
    CopyShort(dst_bytes, bytes + begin, static_cast<size_t>(length),
              static_cast<size_t>(begin) + kShortCopy <= readable);
    dst_bytes += length;
    const int32_t shift = dst[old + i] - begin;
    for (int64_t k = i; k < end; ++k) dst[old + k + 1] = src[rows[k] + 1] + shift;
    i = end;
  }
}

}  // namespace

void TakeRows(const ColumnVector& in, const int64_t* rows, int64_t n, ColumnVector* out) {
  const int64_t old = out->size();
  out->Resize(old + n);
  TakeValidity(in, rows, n, old, out);
  switch (in.kind()) {
    case PhysicalKind::kBytes:
      TakeBytes(in, rows, n, old, out);
      return;
    case PhysicalKind::kList: {
      const std::vector<int64_t> child_rows = TakeOffsets(in, rows, n, old, out);
      TakeRows(*in.child(0), child_rows.data(), static_cast<int64_t>(child_rows.size()),
               out->child(0));
      return;
    }
    case PhysicalKind::kMap: {
      const std::vector<int64_t> child_rows = TakeOffsets(in, rows, n, old, out);
      const auto count = static_cast<int64_t>(child_rows.size());
      TakeRows(*in.child(0), child_rows.data(), count, out->child(0));
      TakeRows(*in.child(1), child_rows.data(), count, out->child(1));
      return;
    }
    case PhysicalKind::kStruct:
      for (int c = 0; c < in.num_children(); ++c) TakeRows(*in.child(c), rows, n, out->child(c));
      return;
    default:
      switch (FixedWidthOf(in.kind())) {
        case 1:
          TakeFixed<1>(in, rows, n, old, out);
          return;
        case 2:
          TakeFixed<2>(in, rows, n, old, out);
          return;
        case 4:
          TakeFixed<4>(in, rows, n, old, out);
          return;
        case 8:
          TakeFixed<8>(in, rows, n, old, out);
          return;
        case 16:
          TakeFixed<16>(in, rows, n, old, out);
          return;
        default: {
          const int width = FixedWidthOf(in.kind());
          const uint8_t* src = in.values().data();
          uint8_t* dst = out->values().data() + old * width;
          for (int64_t i = 0; i < n; ++i) {
            std::memcpy(dst + i * width, src + rows[i] * width, static_cast<size_t>(width));
          }
          return;
        }
      }
  }
}

namespace {

// The buffers of the inputs of one TakeRowsFrom call, read into locals once: in the per-row
// loops, every byte written could otherwise alias the inputs' buffer pointers, which would be
// reloaded through the ColumnVectors row after row.
class InputBuffers {
 public:
  InputBuffers(const ColumnVector* const* ins, const uint32_t* sources, int64_t n) {
    uint32_t count = 0;
    for (int64_t i = 0; i < n; ++i) count = std::max(count, sources[i] + 1);
    inputs_.resize(count);
    for (uint32_t s = 0; s < count; ++s) {
      if (ins[s] == nullptr) continue;  // no row names it
      const ColumnVector& in = *ins[s];
      inputs_[s].values = in.values().data();
      inputs_[s].capacity = in.values().capacity();
      if (in.kind() == PhysicalKind::kBytes) inputs_[s].offsets = in.offset_data();
    }
  }
  struct Input {
    const uint8_t* values = nullptr;
    size_t capacity = 0;
    const int32_t* offsets = nullptr;
  };
  const Input* data() const { return inputs_.data(); }

 private:
  std::vector<Input> inputs_;
};

template <int Width>
void TakeFixedFrom(const InputBuffers& buffers, const uint32_t* sources, const int64_t* rows,
                   int64_t n, int64_t old, ColumnVector* out) {
  const InputBuffers::Input* in = buffers.data();
  uint8_t* dst = out->values().data() + old * Width;
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(dst + i * Width, in[sources[i]].values + rows[i] * Width, Width);
  }
}

void TakeBytesFrom(const InputBuffers& buffers, const uint32_t* sources, const int64_t* rows,
                   int64_t n, int64_t old, ColumnVector* out) {
  const InputBuffers::Input* in = buffers.data();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t* offsets = in[sources[i]].offsets;
    total += offsets[rows[i] + 1] - offsets[rows[i]];
  }
  Buffer& values = out->values();
  const size_t base = values.size();
  values.Reserve(base + static_cast<size_t>(total) + kShortCopy);
  values.Resize(base + static_cast<size_t>(total));
  uint8_t* dst_bytes = values.data() + base;
  int32_t* dst = out->offset_data() + old;
  int32_t end = dst[0];
  for (int64_t i = 0; i < n; ++i) {
    const InputBuffers::Input& source = in[sources[i]];
    const int32_t begin = source.offsets[rows[i]];
    const int32_t length = source.offsets[rows[i] + 1] - begin;
    // An empty string may lie in a column with no bytes at all (null buffers): CopyShort copies
    // nothing for it unless the buffer has the room.
    CopyShort(dst_bytes, source.values + begin, static_cast<size_t>(length),
              static_cast<size_t>(begin) + kShortCopy <= source.capacity);
    dst_bytes += length;
    end += length;
    dst[i + 1] = end;
  }
}

}  // namespace

void TakeRowsFrom(const ColumnVector* const* ins, const uint32_t* sources, const int64_t* rows,
                  int64_t n, ColumnVector* out) {
  if (n == 0) return;
  const PhysicalKind kind = ins[sources[0]]->kind();
  const int width = FixedWidthOf(kind);
  if (kind != PhysicalKind::kBytes && width != 1 && width != 2 && width != 4 && width != 8 &&
      width != 16) {
    // Nested values: row by row (merges of such columns are rare).
    for (int64_t i = 0; i < n; ++i) TakeRows(*ins[sources[i]], rows + i, 1, out);
    return;
  }
  const int64_t old = out->size();
  out->Resize(old + n);
  bool nulls = false;
  for (int64_t i = 0; i < n && !nulls; ++i) nulls = ins[sources[i]]->has_nulls();
  if (nulls || out->has_nulls()) {
    uint8_t* validity = out->MutableValidity();
    for (int64_t i = 0; i < n; ++i) validity[old + i] = ins[sources[i]]->IsNull(rows[i]) ? 0 : 1;
  }
  const InputBuffers buffers(ins, sources, n);
  switch (width) {
    case 1:
      TakeFixedFrom<1>(buffers, sources, rows, n, old, out);
      return;
    case 2:
      TakeFixedFrom<2>(buffers, sources, rows, n, old, out);
      return;
    case 4:
      TakeFixedFrom<4>(buffers, sources, rows, n, old, out);
      return;
    case 8:
      TakeFixedFrom<8>(buffers, sources, rows, n, old, out);
      return;
    case 16:
      TakeFixedFrom<16>(buffers, sources, rows, n, old, out);
      return;
    default:
      TakeBytesFrom(buffers, sources, rows, n, old, out);
      return;
  }
}

void AppendAll(const ColumnVector& in, ColumnVector* out) {
  std::vector<int64_t> rows(static_cast<size_t>(in.size()));
  std::iota(rows.begin(), rows.end(), int64_t{0});
  TakeRows(in, rows.data(), in.size(), out);
}

void AppendNulls(int64_t n, ColumnVector* out) {
  if (n == 0) return;  // leaves an absent validity buffer absent
  const int64_t old = out->size();
  out->Resize(old + n);
  uint8_t* validity = out->MutableValidity();
  std::memset(validity + old, 0, static_cast<size_t>(n));
  switch (out->kind()) {
    case PhysicalKind::kBytes:
    case PhysicalKind::kList:
    case PhysicalKind::kMap: {
      int32_t* offsets = out->offset_data();
      for (int64_t i = 0; i < n; ++i) offsets[old + i + 1] = offsets[old];
      return;
    }
    case PhysicalKind::kStruct:
      for (int c = 0; c < out->num_children(); ++c) AppendNulls(n, out->child(c));
      return;
    default:
      std::memset(out->values().data() + old * FixedWidthOf(out->kind()), 0,
                  static_cast<size_t>(n * FixedWidthOf(out->kind())));
      return;
  }
}

}  // namespace sluice
