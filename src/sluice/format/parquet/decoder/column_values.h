// ColumnValues: the decoded non-null values of one column chunk in their Parquet physical
// representation, which the decoders append to and the column assembler converts to the read
// type. Fixed-width types (BOOLEAN as one byte, INT32, INT64, INT96, FLOAT, DOUBLE,
// FIXED_LEN_BYTE_ARRAY) are packed `width` bytes apart; BYTE_ARRAY values are int32 offsets
// (count + 1, from 0) into the concatenated bytes.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <cstring>

#include "sluice/base/short_copy.h"
#include "sluice/buffer.h"
#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/result.h"

namespace sluice::parquet {

class ColumnValues {
 public:
  // Byte width of one value of `type` (type_length for FIXED_LEN_BYTE_ARRAY), 0 for BYTE_ARRAY.
  static int WidthOf(PhysicalType type, int32_t type_length) {
    switch (type) {
      case PhysicalType::kBoolean:
        return 1;
      case PhysicalType::kInt32:
        return 4;
      case PhysicalType::kInt64:
        return 8;
      case PhysicalType::kInt96:
        return 12;
      case PhysicalType::kFloat:
        return 4;
      case PhysicalType::kDouble:
        return 8;
      case PhysicalType::kByteArray:
        return 0;
      case PhysicalType::kFixedLenByteArray:
        return type_length;
    }
    return 0;
  }

  void Reset(PhysicalType type, int32_t type_length) {
    type_ = type;
    width_ = WidthOf(type, type_length);
    count_ = 0;
    data_.Clear();
    offsets_.Clear();
    if (width_ == 0) offsets_.AppendValue<int32_t>(0);
  }

  PhysicalType type() const { return type_; }
  int width() const { return width_; }
  bool is_byte_array() const { return width_ == 0; }
  int64_t count() const { return count_; }

  const uint8_t* data() const { return data_.data(); }
  size_t data_size() const { return data_.size(); }
  const int32_t* offsets() const { return offsets_.as<int32_t>(); }

  // Fixed width: room for n more values, returned uninitialized.
  uint8_t* AppendFixed(int64_t n) {
    size_t old = data_.size();
    data_.Resize(old + static_cast<size_t>(n) * static_cast<size_t>(width_));
    count_ += n;
    return data_.data() + old;
  }
  // Byte array: one more value. Fails when the chunk's bytes would pass the int32 offsets.
  // `src_room`: kShortCopy bytes may be read at p, so that a short value moves as one copy
  // (CopyShort; the room past the destination is reserved here).
  Status AppendBytes(const uint8_t* p, size_t n, bool src_room = false) {
    const size_t end = data_.size();
    if (end + n > static_cast<size_t>(INT32_MAX)) {
      return Status::NotSupported("parquet: more than 2 GiB of byte-array data in a column chunk");
    }
    data_.Reserve(end + n + kShortCopy);
    CopyShort(data_.data() + end, p, n, src_room);
    data_.Resize(end + n);
    offsets_.AppendValue<int32_t>(static_cast<int32_t>(end + n));
    ++count_;
    return Status::OK();
  }
  // Byte array: the values `indices[0..n)` of `dictionary` (a byte-array ColumnValues), whose
  // bytes sum to `total`, in one pass with no per-value capacity check. Fails as AppendBytes.
  Status AppendGathered(const ColumnValues& dictionary, const uint32_t* indices, int64_t n,
                        size_t total) {
    size_t old = data_.size();
    if (old + total > static_cast<size_t>(INT32_MAX)) {
      return Status::NotSupported("parquet: more than 2 GiB of byte-array data in a column chunk");
    }
    // Short values are copied whole (CopyShort) when the dictionary has the room past its bytes
    // that StartBytes leaves.
    const bool room = dictionary.data_.capacity() >= dictionary.data_.size() + kShortCopy;
    data_.Reserve(old + total + kShortCopy);
    data_.Resize(old + total);
    size_t old_offsets = offsets_.size();
    offsets_.Resize(old_offsets + static_cast<size_t>(n) * sizeof(int32_t));
    uint8_t* bytes = data_.data();
    auto* offsets = reinterpret_cast<int32_t*>(offsets_.data() + old_offsets);
    const uint8_t* from = dictionary.data();
    const int32_t* from_offsets = dictionary.offsets();
    size_t end = old;
    for (int64_t i = 0; i < n; ++i) {
      const int32_t begin = from_offsets[indices[i]];
      const size_t length = static_cast<size_t>(from_offsets[indices[i] + 1] - begin);
      CopyShort(bytes + end, from + begin, length, room);
      end += length;
      offsets[i] = static_cast<int32_t>(end);
    }
    count_ += n;
    return Status::OK();
  }

  // Byte array, in bulk: a decoder's values written into room reserved once (StartBytes), with
  // no capacity or size bookkeeping per value, and kept by CommitBytes.
  class BytesWriter {
   public:
    // Appends n bytes at p as the next value; `src_room` as for AppendBytes.
    // REQUIRES: at most the values and bytes StartBytes was given.
    void Put(const uint8_t* p, size_t n, bool src_room) {
      CopyShort(bytes_ + end_, p, n, src_room);
      end_ += n;
      offsets_[count_++] = static_cast<int32_t>(end_);
    }

   private:
    friend class ColumnValues;
    uint8_t* bytes_ = nullptr;
    int32_t* offsets_ = nullptr;
    size_t end_ = 0;
    int64_t count_ = 0;
  };
  // A writer of up to `values` more values of at most `bytes` bytes in all, with kShortCopy
  // bytes of room past them (CopyShort's, for the writer and for gathers out of a dictionary).
  // Fails as AppendBytes when that many bytes would pass the int32 offsets.
  Result<BytesWriter> StartBytes(size_t values, size_t bytes) {
    if (data_.size() + bytes > static_cast<size_t>(INT32_MAX)) {
      return Status::NotSupported("parquet: more than 2 GiB of byte-array data in a column chunk");
    }
    data_.Reserve(data_.size() + bytes + kShortCopy);
    offsets_.Reserve(offsets_.size() + values * sizeof(int32_t));
    BytesWriter w;
    w.bytes_ = data_.data();
    w.offsets_ = reinterpret_cast<int32_t*>(offsets_.data() + offsets_.size());
    w.end_ = data_.size();
    return w;
  }
  // Keeps the values written through `w`, the last writer started.
  void CommitBytes(const BytesWriter& w) {
    data_.Resize(w.end_);
    offsets_.Resize(offsets_.size() + static_cast<size_t>(w.count_) * sizeof(int32_t));
    count_ += w.count_;
  }
  // Drops the first n values, keeping the rest (and the capacity) for the next pages.
  // REQUIRES: n <= count().
  void DropPrefix(int64_t n) {
    if (n == 0) return;
    const int64_t rest = count_ - n;
    if (width_ > 0) {
      const size_t w = static_cast<size_t>(width_);
      std::memmove(data_.data(), data_.data() + static_cast<size_t>(n) * w,
                   static_cast<size_t>(rest) * w);
      data_.Resize(static_cast<size_t>(rest) * w);
    } else {
      int32_t* off = offsets_.as<int32_t>();
      const int32_t base = off[n];
      const size_t bytes = static_cast<size_t>(off[count_] - base);
      std::memmove(data_.data(), data_.data() + base, bytes);
      data_.Resize(bytes);
      for (int64_t i = 0; i <= rest; ++i) off[i] = off[i + n] - base;
      offsets_.Resize(static_cast<size_t>(rest + 1) * sizeof(int32_t));
    }
    count_ = rest;
  }
  // Byte array: the value i.
  const uint8_t* BytesAt(int64_t i, int32_t* len) const {
    const int32_t* off = offsets();
    *len = off[i + 1] - off[i];
    return data_.data() + off[i];
  }

 private:
  PhysicalType type_ = PhysicalType::kInt32;
  int width_ = 4;
  int64_t count_ = 0;
  Buffer data_;
  Buffer offsets_;
};

}  // namespace sluice::parquet
