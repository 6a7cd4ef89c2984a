#include "sluice/api/byte_codec.h"

#include <climits>
#include <cstring>

#include "sluice/base/coding.h"
#include "sluice/column_batch.h"
#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/manifest_schemas.h"
#include "sluice/meta/manifest_serializer.h"
#include "sluice/row/binary_row.h"

namespace sluice {

ByteWriter::ByteWriter(std::string_view magic, uint8_t version) : out_(magic) {
  out_.push_back(static_cast<char>(version));
}

void ByteWriter::PutInt(int64_t v) { PutVarint64(&out_, ZigZagEncode64(v)); }

void ByteWriter::PutBytes(std::string_view bytes) {
  PutVarint64(&out_, bytes.size());
  out_.append(bytes);
}

void ByteWriter::PutValue(const Value& value) {
  PutInt(static_cast<int64_t>(value.kind()));
  switch (value.kind()) {
    case Value::Kind::kNull:
      return;
    case Value::Kind::kBoolean:
      return PutBool(value.boolean());
    case Value::Kind::kInt8:
    case Value::Kind::kInt16:
    case Value::Kind::kInt32:
    case Value::Kind::kInt64:
      return PutInt(value.AsInt64());
    case Value::Kind::kFloat: {
      float f = value.float32();
      uint32_t bits = 0;
      std::memcpy(&bits, &f, sizeof(bits));
      return PutInt(bits);
    }
    case Value::Kind::kDouble: {
      double d = value.float64();
      int64_t bits = 0;
      std::memcpy(&bits, &d, sizeof(bits));
      return PutInt(bits);
    }
    case Value::Kind::kDecimal: {
      const Decimal& d = value.decimal();
      PutInt(static_cast<int64_t>(static_cast<unsigned __int128>(d.unscaled) >> 64));
      PutInt(static_cast<int64_t>(static_cast<uint64_t>(d.unscaled)));
      PutInt(d.precision);
      return PutInt(d.scale);
    }
    case Value::Kind::kString:
    case Value::Kind::kBinary:
      return PutBytes(value.bytes());
    case Value::Kind::kTimestamp:
      PutInt(value.timestamp().millisecond);
      return PutInt(value.timestamp().nano_of_millisecond);
    case Value::Kind::kArray:
    case Value::Kind::kRow:
      PutInt(static_cast<int64_t>(value.list().size()));
      for (const Value& item : value.list()) PutValue(item);
      return;
    case Value::Kind::kMap:
      PutInt(static_cast<int64_t>(value.pairs().size()));
      for (const auto& [key, item] : value.pairs()) {
        PutValue(key);
        PutValue(item);
      }
      return;
  }
}

namespace {

// One record of `row_type` as BinaryRow bytes.
Result<std::string> EncodeRecord(const ColumnBatch& batch) {
  const Value row = batch.GetRow(0);
  return EncodeBinaryRow(row.list(), *batch.schema());
}

}  // namespace

Status ByteWriter::PutDataFile(const DataFileMeta& file) {
  // A ManifestEntry carries the DataFileMeta row; its other fields are fixed here.
  ManifestEntry entry;
  entry.partition = SerializeBinaryRow(EmptyBinaryRow(), 0);
  entry.file = file;
  ColumnBatch batch(ManifestEntryRowType());
  SLUICE_RETURN_NOT_OK(AppendManifestEntry(entry, &batch));
  SLUICE_ASSIGN_OR_RETURN(std::string bytes, EncodeRecord(batch));
  PutBytes(bytes);
  return Status::OK();
}

Status ByteWriter::PutIndexFile(const IndexManifestEntry& entry) {
  ColumnBatch batch(IndexManifestEntryRowType());
  SLUICE_RETURN_NOT_OK(AppendIndexManifestEntry(entry, &batch));
  SLUICE_ASSIGN_OR_RETURN(std::string bytes, EncodeRecord(batch));
  PutBytes(bytes);
  return Status::OK();
}

Status ByteReader::Corrupt(std::string_view field, std::string_view problem) const {
  return Status::Corruption(what_ + " field '" + std::string(field) + "' at byte " +
                            std::to_string(pos_) + ": " + std::string(problem));
}

Status ByteReader::ReadHeader(std::string_view magic, uint8_t version) {
  if (bytes_.size() < magic.size() + 1 || bytes_.substr(0, magic.size()) != magic) {
    return Status::Corruption("not a serialized " + what_ + ": expected the magic '" +
                              std::string(magic) + "' (" + std::to_string(bytes_.size()) +
                              " bytes given)");
  }
  const auto found = static_cast<uint8_t>(bytes_[magic.size()]);
  if (found != version) {
    return Status::NotSupported("serialized " + what_ + " has version " + std::to_string(found) +
                                "; this library reads version " + std::to_string(version));
  }
  pos_ = magic.size() + 1;
  return Status::OK();
}

Result<int64_t> ByteReader::ReadInt(std::string_view field) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes_.data()) + pos_;
  const auto* limit = reinterpret_cast<const uint8_t*>(bytes_.data()) + bytes_.size();
  uint64_t v = 0;
  if (!GetVarint64(&p, limit, &v)) return Corrupt(field, "truncated or malformed varint");
  pos_ = static_cast<size_t>(p - reinterpret_cast<const uint8_t*>(bytes_.data()));
  return ZigZagDecode64(v);
}

Result<int32_t> ByteReader::ReadInt32(std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(int64_t v, ReadInt(field));
  if (v < INT32_MIN || v > INT32_MAX) return Corrupt(field, std::to_string(v) + " is not an INT");
  return static_cast<int32_t>(v);
}

Result<bool> ByteReader::ReadBool(std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(int64_t v, ReadInt(field));
  if (v != 0 && v != 1) return Corrupt(field, std::to_string(v) + " is not a boolean");
  return v == 1;
}

Result<std::string> ByteReader::ReadBytes(std::string_view field) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes_.data()) + pos_;
  const auto* limit = reinterpret_cast<const uint8_t*>(bytes_.data()) + bytes_.size();
  uint64_t length = 0;
  if (!GetVarint64(&p, limit, &length)) return Corrupt(field, "truncated or malformed length");
  const auto start = static_cast<size_t>(p - reinterpret_cast<const uint8_t*>(bytes_.data()));
  if (length > bytes_.size() - start) {
    return Corrupt(field, "length " + std::to_string(length) + " runs past the end");
  }
  pos_ = start + static_cast<size_t>(length);
  return std::string(bytes_.substr(start, static_cast<size_t>(length)));
}

Result<size_t> ByteReader::ReadCount(std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(int64_t n, ReadInt(field));
  if (n < 0 || static_cast<uint64_t>(n) > bytes_.size() - pos_) {
    return Corrupt(field, "count " + std::to_string(n) + " does not fit the bytes left");
  }
  return static_cast<size_t>(n);
}

namespace {

Result<ValueList> DecodeRecord(std::string_view bytes, const DataTypePtr& row_type,
                               ColumnBatch* batch) {
  SLUICE_ASSIGN_OR_RETURN(ValueList values, DecodeBinaryRow(bytes, *row_type));
  SLUICE_RETURN_NOT_OK(batch->AppendRow(values));
  return values;
}

}  // namespace

Result<DataFileMeta> ByteReader::ReadDataFile(std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(std::string bytes, ReadBytes(field));
  ColumnBatch batch(ManifestEntryRowType());
  auto decoded = DecodeRecord(bytes, ManifestEntryRowType(), &batch);
  if (!decoded.ok()) return Corrupt(field, decoded.status().message());
  auto entry = ManifestEntryFromRow(batch, 0);
  if (!entry.ok()) return Corrupt(field, entry.status().message());
  return std::move(entry->file);
}

Result<IndexManifestEntry> ByteReader::ReadIndexFile(std::string_view field) {
  SLUICE_ASSIGN_OR_RETURN(std::string bytes, ReadBytes(field));
  ColumnBatch batch(IndexManifestEntryRowType());
  auto decoded = DecodeRecord(bytes, IndexManifestEntryRowType(), &batch);
  if (!decoded.ok()) return Corrupt(field, decoded.status().message());
  auto entry = IndexManifestEntryFromRow(batch, 0);
  if (!entry.ok()) return Corrupt(field, entry.status().message());
  return std::move(*entry);
}

Result<Value> ByteReader::ReadValue(std::string_view field, int depth) {
  // Deeper nesting than any Paimon type allows is corrupt input, not recursion to follow.
  constexpr int kMaxDepth = 64;
  if (depth > kMaxDepth) return Corrupt(field, "values nested too deeply");
  SLUICE_ASSIGN_OR_RETURN(int64_t kind, ReadInt(field));
  if (kind < 0 || kind > static_cast<int64_t>(Value::Kind::kRow)) {
    return Corrupt(field, "unknown value kind " + std::to_string(kind));
  }
  switch (static_cast<Value::Kind>(kind)) {
    case Value::Kind::kNull:
      return Value::Null();
    case Value::Kind::kBoolean: {
      SLUICE_ASSIGN_OR_RETURN(bool v, ReadBool(field));
      return Value::Boolean(v);
    }
    case Value::Kind::kInt8:
    case Value::Kind::kInt16:
    case Value::Kind::kInt32:
    case Value::Kind::kInt64: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, ReadInt(field));
      const auto k = static_cast<Value::Kind>(kind);
      const int64_t lo = k == Value::Kind::kInt8    ? INT8_MIN
                         : k == Value::Kind::kInt16 ? INT16_MIN
                         : k == Value::Kind::kInt32 ? INT32_MIN
                                                    : INT64_MIN;
      const int64_t hi = k == Value::Kind::kInt8    ? INT8_MAX
                         : k == Value::Kind::kInt16 ? INT16_MAX
                         : k == Value::Kind::kInt32 ? INT32_MAX
                                                    : INT64_MAX;
      if (v < lo || v > hi) return Corrupt(field, std::to_string(v) + " out of range");
      if (k == Value::Kind::kInt8) return Value::Int8(static_cast<int8_t>(v));
      if (k == Value::Kind::kInt16) return Value::Int16(static_cast<int16_t>(v));
      if (k == Value::Kind::kInt32) return Value::Int32(static_cast<int32_t>(v));
      return Value::Int64(v);
    }
    case Value::Kind::kFloat: {
      SLUICE_ASSIGN_OR_RETURN(int64_t bits, ReadInt(field));
      if (bits < 0 || bits > UINT32_MAX) return Corrupt(field, "bad FLOAT bits");
      const auto b = static_cast<uint32_t>(bits);
      float f = 0;
      std::memcpy(&f, &b, sizeof(f));
      return Value::Float(f);
    }
    case Value::Kind::kDouble: {
      SLUICE_ASSIGN_OR_RETURN(int64_t bits, ReadInt(field));
      double d = 0;
      std::memcpy(&d, &bits, sizeof(d));
      return Value::Double(d);
    }
    case Value::Kind::kDecimal: {
      SLUICE_ASSIGN_OR_RETURN(int64_t high, ReadInt(field));
      SLUICE_ASSIGN_OR_RETURN(int64_t low, ReadInt(field));
      SLUICE_ASSIGN_OR_RETURN(int32_t precision, ReadInt32(field));
      SLUICE_ASSIGN_OR_RETURN(int32_t scale, ReadInt32(field));
      Decimal d;
      d.unscaled = static_cast<int128_t>(
          (static_cast<unsigned __int128>(static_cast<uint64_t>(high)) << 64) |
          static_cast<uint64_t>(low));
      d.precision = precision;
      d.scale = scale;
      return Value::FromDecimal(d);
    }
    case Value::Kind::kString:
    case Value::Kind::kBinary: {
      SLUICE_ASSIGN_OR_RETURN(std::string bytes, ReadBytes(field));
      return static_cast<Value::Kind>(kind) == Value::Kind::kString
                 ? Value::String(std::move(bytes))
                 : Value::Binary(std::move(bytes));
    }
    case Value::Kind::kTimestamp: {
      SLUICE_ASSIGN_OR_RETURN(int64_t millis, ReadInt(field));
      SLUICE_ASSIGN_OR_RETURN(int32_t nanos, ReadInt32(field));
      if (nanos < 0 || nanos > 999999) return Corrupt(field, "nano of millisecond out of range");
      return Value::FromTimestamp(Timestamp{millis, nanos});
    }
    case Value::Kind::kArray:
    case Value::Kind::kRow: {
      SLUICE_ASSIGN_OR_RETURN(size_t n, ReadCount(field));
      ValueList items;
      items.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        SLUICE_ASSIGN_OR_RETURN(Value item, ReadValue(field, depth + 1));
        items.push_back(std::move(item));
      }
      return static_cast<Value::Kind>(kind) == Value::Kind::kArray ? Value::Array(std::move(items))
                                                                   : Value::Row(std::move(items));
    }
    case Value::Kind::kMap: {
      SLUICE_ASSIGN_OR_RETURN(size_t n, ReadCount(field));
      ValuePairs pairs;
      pairs.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        SLUICE_ASSIGN_OR_RETURN(Value key, ReadValue(field, depth + 1));
        SLUICE_ASSIGN_OR_RETURN(Value item, ReadValue(field, depth + 1));
        pairs.emplace_back(std::move(key), std::move(item));
      }
      return Value::Map(std::move(pairs));
    }
  }
  return Corrupt(field, "unknown value kind " + std::to_string(kind));
}

Status ByteReader::ExpectEnd() const {
  if (pos_ == bytes_.size()) return Status::OK();
  return Status::Corruption(what_ + ": " + std::to_string(bytes_.size() - pos_) +
                            " trailing bytes after the last field");
}

}  // namespace sluice
