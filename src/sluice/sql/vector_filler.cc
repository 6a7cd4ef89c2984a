#include "sluice/sql/vector_filler.h"

#include <cstring>

namespace sluice::sql {

namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

template <typename Out, typename In, typename F>
void Convert(const In* in, idx_t count, duckdb_vector target, F f) {
  Out* out = static_cast<Out*>(duckdb_vector_get_data(target));
  for (idx_t i = 0; i < count; ++i) out[i] = f(in[i]);
}

// The bytes of a string DuckDB keeps inside its duckdb_string_t.
constexpr uint32_t kInlineBytes = sizeof(duckdb_string_t{}.value.inlined.inlined);

bool IsAscii(const char* value, uint32_t length) {
  uint64_t high = 0;
  uint32_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint64_t word;
    std::memcpy(&word, value + i, sizeof(word));
    high |= word;
  }
  for (; i < length; ++i) high |= static_cast<unsigned char>(value[i]);
  return (high & 0x8080808080808080ULL) == 0;
}

static_assert(sizeof(duckdb_string_t) == 16 && kInlineBytes == 12);
constexpr uint64_t kHighBits = 0x8080808080808080ULL;

// The first n < 8 bytes of `word` (little-endian), the rest zero.
inline uint64_t LowBytes(uint64_t word, uint32_t n) {
  return word & ((uint64_t{1} << (8 * n)) - 1);
}

// Writes `value` (length <= kInlineBytes) as DuckDB's inline string from two whole words read
// at `value`, which must have 16 readable bytes; false (nothing written) if it is not ASCII.
inline bool InlineAscii(const char* value, uint32_t length, duckdb_string_t* slot) {
  uint64_t a, b;
  std::memcpy(&a, value, 8);
  std::memcpy(&b, value + 8, 8);
  if (length < 8) {
    a = LowBytes(a, length);
    b = 0;
  } else {
    b = LowBytes(b, length - 8);
  }
  if (((a | b) & kHighBits) != 0) return false;
  // length (4 bytes), then 12 bytes: all of a and the low half of b.
  const uint32_t low = static_cast<uint32_t>(b);
  std::memcpy(reinterpret_cast<char*>(slot), &length, 4);
  std::memcpy(reinterpret_cast<char*>(slot) + 4, &a, 8);
  std::memcpy(reinterpret_cast<char*>(slot) + 12, &low, 4);
  return true;
}

// `value` (length <= kInlineBytes) as DuckDB's inline string, byte by byte.
inline void Inline(const char* value, uint32_t length, duckdb_string_t* slot) {
  std::memset(slot, 0, sizeof(*slot));
  slot->value.inlined.length = length;
  if (length > 0) std::memcpy(slot->value.inlined.inlined, value, length);
}

// `value` (length > kInlineBytes) as DuckDB's string pointing at the column's bytes.
inline void PointTo(const char* value, uint32_t length, duckdb_string_t* slot) {
  slot->value.pointer.length = length;
  std::memcpy(slot->value.pointer.prefix, value, sizeof(slot->value.pointer.prefix));
  // DuckDB never writes through a scan's strings; the pointer type is not const.
  slot->value.pointer.ptr = const_cast<char*>(value);
}

}  // namespace

std::optional<VectorFiller> VectorFiller::Make(const DataType& type,
                                               duckdb_logical_type target_type) {
  duckdb_type id = duckdb_get_type_id(target_type);
  PhysicalKind kind = PhysicalKindOf(type);
  switch (kind) {
    case PhysicalKind::kUInt8:
      if (id == DUCKDB_TYPE_BOOLEAN) return VectorFiller(Conversion::kCopy, 1);
      break;
    case PhysicalKind::kInt8:
    case PhysicalKind::kInt16:
    case PhysicalKind::kFloat:
    case PhysicalKind::kDouble:
      return VectorFiller(Conversion::kCopy, FixedWidthOf(kind));
    case PhysicalKind::kInt32:
      if (type.root() == TypeRoot::kTime) {
        if (id == DUCKDB_TYPE_TIME) return VectorFiller(Conversion::kTimeMillisToMicros, 0);
        break;
      }
      return VectorFiller(Conversion::kCopy, 4);  // INT, DATE (days since the epoch)
    case PhysicalKind::kInt64:
      if (type.root() != TypeRoot::kDecimal) return VectorFiller(Conversion::kCopy, 8);
      if (id != DUCKDB_TYPE_DECIMAL) break;
      switch (duckdb_decimal_internal_type(target_type)) {
        case DUCKDB_TYPE_SMALLINT:
          return VectorFiller(Conversion::kInt64ToInt16, 0);
        case DUCKDB_TYPE_INTEGER:
          return VectorFiller(Conversion::kInt64ToInt32, 0);
        case DUCKDB_TYPE_BIGINT:
          return VectorFiller(Conversion::kCopy, 8);
        default:
          break;
      }
      break;
    case PhysicalKind::kInt128:
      // DuckDB's hugeint is the little-endian 128-bit integer: lower half first.
      if (id == DUCKDB_TYPE_DECIMAL &&
          duckdb_decimal_internal_type(target_type) == DUCKDB_TYPE_HUGEINT) {
        return VectorFiller(Conversion::kCopy, 16);
      }
      break;
    case PhysicalKind::kTimestamp:
      switch (id) {
        case DUCKDB_TYPE_TIMESTAMP_S:
          return VectorFiller(Conversion::kTimestampSeconds, 0);
        case DUCKDB_TYPE_TIMESTAMP_MS:
          return VectorFiller(Conversion::kTimestampMillis, 0);
        case DUCKDB_TYPE_TIMESTAMP:
        case DUCKDB_TYPE_TIMESTAMP_TZ:
          return VectorFiller(Conversion::kTimestampMicros, 0);
        case DUCKDB_TYPE_TIMESTAMP_NS:
          return VectorFiller(Conversion::kTimestampNanos, 0);
        default:
          break;
      }
      break;
    case PhysicalKind::kBytes:
      if (id == DUCKDB_TYPE_VARCHAR) return VectorFiller(Conversion::kVarchar, 0);
      if (id == DUCKDB_TYPE_BLOB) return VectorFiller(Conversion::kBlob, 0);
      break;
    default:
      break;
  }
  return std::nullopt;
}

void VectorFiller::Fill(const ColumnVector& column, int64_t offset, idx_t count,
                        duckdb_vector target) const {
  if (column.has_nulls()) {
    duckdb_vector_ensure_validity_writable(target);
    uint64_t* validity = duckdb_vector_get_validity(target);
    const uint8_t* present = column.validity().data() + offset;
    for (idx_t i = 0; i < count; ++i) {
      if (present[i] == 0) duckdb_validity_set_row_invalid(validity, i);
    }
  }
  switch (conversion_) {
    case Conversion::kCopy:
      std::memcpy(duckdb_vector_get_data(target), column.values().data() + offset * width_,
                  count * static_cast<size_t>(width_));
      return;
    case Conversion::kTimeMillisToMicros:
      Convert<int64_t>(column.data<int32_t>() + offset, count, target,
                       [](int32_t millis) { return static_cast<int64_t>(millis) * 1000; });
      return;
    case Conversion::kInt64ToInt16:
      Convert<int16_t>(column.data<int64_t>() + offset, count, target,
                       [](int64_t v) { return static_cast<int16_t>(v); });
      return;
    case Conversion::kInt64ToInt32:
      Convert<int32_t>(column.data<int64_t>() + offset, count, target,
                       [](int64_t v) { return static_cast<int32_t>(v); });
      return;
    case Conversion::kTimestampSeconds:
      Convert<int64_t>(column.data<Timestamp>() + offset, count, target,
                       [](const Timestamp& t) { return FloorDiv(t.millisecond, 1000); });
      return;
    case Conversion::kTimestampMillis:
      Convert<int64_t>(column.data<Timestamp>() + offset, count, target,
                       [](const Timestamp& t) { return t.millisecond; });
      return;
    case Conversion::kTimestampMicros:
      Convert<int64_t>(column.data<Timestamp>() + offset, count, target,
                       [](const Timestamp& t) { return t.ToEpochMicros(); });
      return;
    case Conversion::kTimestampNanos:
      Convert<int64_t>(column.data<Timestamp>() + offset, count, target, [](const Timestamp& t) {
        return t.millisecond * 1000000 + t.nano_of_millisecond;
      });
      return;
    case Conversion::kVarchar: {
      const int32_t* offsets = column.offset_data() + offset;
      const char* bytes = reinterpret_cast<const char*>(column.values().data());
      // Values starting this far before the end of the column's allocation can be read as two
      // whole words.
      const int64_t word_room = static_cast<int64_t>(column.values().capacity()) - 16;
      auto* out = static_cast<duckdb_string_t*>(duckdb_vector_get_data(target));
      // One pass over the slice's bytes usually shows them all ASCII (valid UTF-8 as they are),
      // and then no value is checked on its own.
      if (IsAscii(bytes + offsets[0], static_cast<uint32_t>(offsets[count] - offsets[0]))) {
        for (idx_t i = 0; i < count; ++i) {
          const char* value = bytes + offsets[i];
          const auto length = static_cast<uint32_t>(offsets[i + 1] - offsets[i]);
          duckdb_string_t& slot = out[i];
          if (length > kInlineBytes) {
            PointTo(value, length, &slot);
          } else if (offsets[i] <= word_room) {
            InlineAscii(value, length, &slot);
          } else {
            Inline(value, length, &slot);
          }
        }
        return;
      }
      for (idx_t i = 0; i < count; ++i) {
        const char* value = bytes + offsets[i];
        const auto length = static_cast<uint32_t>(offsets[i + 1] - offsets[i]);
        duckdb_string_t& slot = out[i];
        if (length <= kInlineBytes && offsets[i] <= word_room &&
            InlineAscii(value, length, &slot)) {
          continue;
        }
        if (!IsAscii(value, length)) {
          duckdb_vector_assign_string_element_len(target, i, value, length);
        } else if (length <= kInlineBytes) {
          Inline(value, length, &slot);
        } else {
          PointTo(value, length, &slot);
        }
      }
      return;
    }
    case Conversion::kBlob: {
      const int32_t* offsets = column.offset_data() + offset;
      const char* bytes = reinterpret_cast<const char*>(column.values().data());
      for (idx_t i = 0; i < count; ++i) {
        duckdb_vector_assign_string_element_len(target, i, bytes + offsets[i],
                                                offsets[i + 1] - offsets[i]);
      }
      return;
    }
  }
}

}  // namespace sluice::sql
