#include "sluice/format/avro/avro_record_decoder.h"

#include <cstring>
#include <limits>
#include <utility>

#include "sluice/format/avro/avro_decode_plan.h"

namespace sluice {

namespace {

using Op = AvroDecodeOp;
using Node = AvroDecodeNode;
constexpr int32_t kNullBranch = kAvroNullBranch;
constexpr int32_t kBadBranch = kAvroUnreadableBranch;
// Work allowed for values that take no bytes (nulls, empty records) beyond the block's size.
constexpr int64_t kZeroSizeSlack = 1 << 16;
constexpr int kMaxSkipDepth = 128;

// Big-endian two's complement of any length to int128; false if it does not fit.
bool BigEndianToInt128(std::string_view b, int128_t* out) {
  if (b.empty()) {
    *out = 0;
    return true;
  }
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  size_t n = b.size();
  bool negative = (p[0] & 0x80) != 0;
  size_t skip = 0;
  if (n > 16) {
    skip = n - 16;
    uint8_t fill = negative ? 0xff : 0x00;
    for (size_t i = 0; i < skip; ++i) {
      if (p[i] != fill) return false;
    }
    if (((p[skip] & 0x80) != 0) != negative) return false;
  }
  unsigned __int128 v = negative ? ~static_cast<unsigned __int128>(0) : 0;
  for (size_t i = skip; i < n; ++i) v = (v << 8) | p[i];
  *out = static_cast<int128_t>(v);
  return true;
}

// ---- Appending to column buffers ----

inline void MarkValid(ColumnVector* v) { v->validity().AppendValue<uint8_t>(1); }

template <typename T>
inline void PutFixed(ColumnVector* v, T x) {
  v->validity().AppendValue<uint8_t>(1);
  v->values().AppendValue<T>(x);
}

int32_t LastOffset(const ColumnVector& v) {
  return v.offset_data()[v.offsets().size() / sizeof(int32_t) - 1];
}

void AppendNullRaw(ColumnVector* v) {
  v->validity().AppendValue<uint8_t>(0);
  switch (v->kind()) {
    case PhysicalKind::kBytes:
    case PhysicalKind::kList:
    case PhysicalKind::kMap:
      v->offsets().AppendValue<int32_t>(LastOffset(*v));
      break;
    case PhysicalKind::kStruct:
      for (int i = 0; i < v->num_children(); ++i) AppendNullRaw(v->child(i));
      break;
    default: {
      Buffer& values = v->values();
      values.ResizeZeroed(values.size() + static_cast<size_t>(FixedWidthOf(v->kind())));
      break;
    }
  }
}

void FinishVector(ColumnVector* v) {
  int64_t n = static_cast<int64_t>(v->validity().size());
  v->Resize(n);
  if (n == 0 || std::memchr(v->validity().data(), 0, static_cast<size_t>(n)) == nullptr) {
    v->validity().Clear();
  }
  for (int i = 0; i < v->num_children(); ++i) FinishVector(v->child(i));
}

// Error builders, kept out of line so that the decode loop stays small.
#define SLUICE_COLD [[gnu::noinline, gnu::cold]]

SLUICE_COLD Status FieldError(StatusCode code, const Node& n, const std::string& what) {
  return Status(code, "field " + n.path + ": " + what);
}
SLUICE_COLD Status Truncated(const Node& n) {
  return FieldError(StatusCode::kCorruption, n,
                    "value runs past the end of the block (or has a bad varint)");
}
SLUICE_COLD Status NegativeLength(const Node& n, int64_t len) {
  return FieldError(StatusCode::kCorruption, n, "negative length " + std::to_string(len));
}
SLUICE_COLD Status LengthPastBlock(const Node& n, int64_t len, size_t left) {
  return FieldError(StatusCode::kCorruption, n,
                    "length " + std::to_string(len) + " exceeds the " + std::to_string(left) +
                        " bytes left in the block");
}
SLUICE_COLD Status TooManyItems(const Node& n, int64_t count, size_t left) {
  return FieldError(StatusCode::kCorruption, n,
                    std::to_string(count) + " items cannot fit in the " + std::to_string(left) +
                        " bytes left in the block");
}
SLUICE_COLD Status ImplausibleCount(const Node& n, int64_t count) {
  return FieldError(StatusCode::kCorruption, n, "implausible item count " + std::to_string(count));
}
SLUICE_COLD Status BadUnionIndex(const Node& n, int64_t index, int64_t branches) {
  return FieldError(StatusCode::kCorruption, n,
                    "union index " + std::to_string(index) + " out of range [0, " +
                        std::to_string(branches) + ")");
}
SLUICE_COLD Status UnreadableBranch(const Node& n, int64_t index, const ColumnVector& out) {
  return FieldError(StatusCode::kNotSupported, n,
                    "union branch " + std::to_string(index) + " (" +
                        DescribeAvroSchema(*n.writer->branches[static_cast<size_t>(index)]) +
                        ") cannot be read as " + out.type()->ToString());
}
SLUICE_COLD Status BadBoolean(const Node& n, uint8_t byte) {
  return FieldError(StatusCode::kCorruption, n, "boolean byte " + std::to_string(byte));
}
SLUICE_COLD Status BadEnumIndex(const Node& n, int64_t index) {
  return FieldError(StatusCode::kCorruption, n,
                    "enum index " + std::to_string(index) + " out of range [0, " +
                        std::to_string(n.writer->symbols.size()) + ")");
}
SLUICE_COLD Status BadDecimal(const Node& n, size_t bytes, bool overflow) {
  return FieldError(
      StatusCode::kCorruption, n,
      overflow ? std::string("decimal value exceeds its precision")
               : "decimal of " + std::to_string(bytes) + " bytes does not fit in 128 bits");
}
SLUICE_COLD Status BatchTooLarge(const Node& n, const char* what) {
  return FieldError(StatusCode::kNotSupported, n,
                    std::string("more than ") + what + " in one batch");
}

class DecodeLoop {
 public:
  DecodeLoop(AvroCursor* in, int64_t zero_size_budget) : in_(in), budget_(zero_size_budget) {}

  Status PutBytes(const Node& n, ColumnVector* v, std::string_view s) {
    Buffer& values = v->values();
    if (values.size() + s.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      return BatchTooLarge(n, "2 GiB of bytes");
    }
    values.Append(s);
    v->offsets().AppendValue<int32_t>(static_cast<int32_t>(values.size()));
    MarkValid(v);
    return Status::OK();
  }

  Status ReadLength(const Node& n, int64_t* len) {
    if (!in_->ReadLong(len)) return Truncated(n);
    if (*len < 0) {
      return NegativeLength(n, *len);
    }
    if (static_cast<uint64_t>(*len) > in_->remaining()) {
      return LengthPastBlock(n, *len, in_->remaining());
    }
    return Status::OK();
  }

  // Reads the count of the next array / map block; 0 ends the value.
  Status ReadBlockCount(const Node& n, int min_item_size, int64_t* count) {
    if (!in_->ReadLong(count)) return Truncated(n);
    if (*count < 0) {
      int64_t byte_size;
      if (*count == std::numeric_limits<int64_t>::min() || !in_->ReadLong(&byte_size)) {
        return FieldError(StatusCode::kCorruption, n, "bad array/map block header");
      }
      *count = -*count;
    }
    if (min_item_size > 0) {
      if (static_cast<uint64_t>(*count) > in_->remaining() / static_cast<uint64_t>(min_item_size)) {
        return TooManyItems(n, *count, in_->remaining());
      }
    } else {
      budget_ -= *count;
      if (budget_ < 0) {
        return ImplausibleCount(n, *count);
      }
    }
    return Status::OK();
  }

  Status Decimal(const Node& n, std::string_view b, ColumnVector* out, bool compact) {
    int128_t v;
    if (!BigEndianToInt128(b, &v)) {
      return BadDecimal(n, b.size(), false);
    }
    if (compact) {
      if (v < std::numeric_limits<int64_t>::min() || v > std::numeric_limits<int64_t>::max()) {
        return BadDecimal(n, b.size(), true);
      }
      PutFixed<int64_t>(out, static_cast<int64_t>(v));
    } else {
      PutFixed<int128_t>(out, v);
    }
    return Status::OK();
  }

  Status Value(const Node& n, ColumnVector* out) {
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    uint8_t byte;
    std::string_view bytes;
    switch (n.op) {
      case Op::kSkip:
        return Skip(*n.writer, 0);
      case Op::kNull:
        AppendNullRaw(out);
        return Status::OK();
      case Op::kOptional:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        if (i64 == n.null_branch) {
          AppendNullRaw(out);
          return Status::OK();
        }
        if (i64 != 1 - n.null_branch) return BadUnionIndex(n, i64, 2);
        return Value(n.children[0], out);
      case Op::kUnion: {
        if (!in_->ReadLong(&i64)) return Truncated(n);
        int64_t branches = static_cast<int64_t>(n.branch_child.size());
        if (i64 < 0 || i64 >= branches) return BadUnionIndex(n, i64, branches);
        int32_t c = n.branch_child[static_cast<size_t>(i64)];
        if (c == kNullBranch) {
          AppendNullRaw(out);
          return Status::OK();
        }
        if (c == kBadBranch) {
          return UnreadableBranch(n, i64, *out);
        }
        return Value(n.children[static_cast<size_t>(c)], out);
      }
      case Op::kBoolean:
        if (!in_->ReadByte(&byte)) return Truncated(n);
        if (byte > 1) {
          return BadBoolean(n, byte);
        }
        PutFixed<uint8_t>(out, byte);
        return Status::OK();
      case Op::kIntToInt8:
        if (!in_->ReadInt(&i32)) return Truncated(n);
        PutFixed<int8_t>(out, static_cast<int8_t>(i32));
        return Status::OK();
      case Op::kIntToInt16:
        if (!in_->ReadInt(&i32)) return Truncated(n);
        PutFixed<int16_t>(out, static_cast<int16_t>(i32));
        return Status::OK();
      case Op::kIntToInt32:
        if (!in_->ReadInt(&i32)) return Truncated(n);
        PutFixed<int32_t>(out, i32);
        return Status::OK();
      case Op::kIntToInt64:
        if (!in_->ReadInt(&i32)) return Truncated(n);
        PutFixed<int64_t>(out, i32);
        return Status::OK();
      case Op::kLongToInt64:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        PutFixed<int64_t>(out, i64);
        return Status::OK();
      case Op::kIntToFloat:
        if (!in_->ReadInt(&i32)) return Truncated(n);
        PutFixed<float>(out, static_cast<float>(i32));
        return Status::OK();
      case Op::kLongToFloat:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        PutFixed<float>(out, static_cast<float>(i64));
        return Status::OK();
      case Op::kFloatToFloat:
        if (!in_->ReadFloat(&f32)) return Truncated(n);
        PutFixed<float>(out, f32);
        return Status::OK();
      case Op::kIntToDouble:
        if (!in_->ReadInt(&i32)) return Truncated(n);
        PutFixed<double>(out, i32);
        return Status::OK();
      case Op::kLongToDouble:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        PutFixed<double>(out, static_cast<double>(i64));
        return Status::OK();
      case Op::kFloatToDouble:
        if (!in_->ReadFloat(&f32)) return Truncated(n);
        PutFixed<double>(out, f32);
        return Status::OK();
      case Op::kDoubleToDouble:
        if (!in_->ReadDouble(&f64)) return Truncated(n);
        PutFixed<double>(out, f64);
        return Status::OK();
      case Op::kTimeMicrosToMillis:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        PutFixed<int32_t>(out, static_cast<int32_t>(i64 / 1000));
        return Status::OK();
      case Op::kMillisToTimestamp:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        PutFixed<Timestamp>(out, Timestamp{i64, 0});
        return Status::OK();
      case Op::kMicrosToTimestamp:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        PutFixed<Timestamp>(out, Timestamp::FromEpochMicros(i64));
        return Status::OK();
      case Op::kNanosToTimestamp:
        if (!in_->ReadLong(&i64)) return Truncated(n);
        PutFixed<Timestamp>(out, Timestamp::FromEpochNanos(i64));
        return Status::OK();
      case Op::kBytes:
        SLUICE_RETURN_NOT_OK(ReadLength(n, &i64));
        in_->ReadFixed(static_cast<size_t>(i64), &bytes);
        return PutBytes(n, out, bytes);
      case Op::kFixedToBytes:
        if (!in_->ReadFixed(static_cast<size_t>(n.fixed_size), &bytes)) return Truncated(n);
        return PutBytes(n, out, bytes);
      case Op::kEnumToString: {
        if (!in_->ReadLong(&i64)) return Truncated(n);
        const auto& symbols = n.writer->symbols;
        if (i64 < 0 || i64 >= static_cast<int64_t>(symbols.size())) {
          return BadEnumIndex(n, i64);
        }
        return PutBytes(n, out, symbols[static_cast<size_t>(i64)]);
      }
      case Op::kDecimalBytesToInt64:
      case Op::kDecimalBytesToInt128:
        SLUICE_RETURN_NOT_OK(ReadLength(n, &i64));
        in_->ReadFixed(static_cast<size_t>(i64), &bytes);
        return Decimal(n, bytes, out, n.op == Op::kDecimalBytesToInt64);
      case Op::kDecimalFixedToInt64:
      case Op::kDecimalFixedToInt128:
        if (!in_->ReadFixed(static_cast<size_t>(n.fixed_size), &bytes)) return Truncated(n);
        return Decimal(n, bytes, out, n.op == Op::kDecimalFixedToInt64);
      case Op::kArray: {
        ColumnVector* items = out->child(0);
        while (true) {
          SLUICE_RETURN_NOT_OK(ReadBlockCount(n, n.min_item_size, &i64));
          if (i64 == 0) break;
          for (int64_t k = 0; k < i64; ++k) SLUICE_RETURN_NOT_OK(Value(n.children[0], items));
        }
        return EndList(n, out, items);
      }
      case Op::kMap: {
        ColumnVector* keys = out->child(0);
        ColumnVector* values = out->child(1);
        while (true) {
          SLUICE_RETURN_NOT_OK(ReadBlockCount(n, n.min_item_size, &i64));
          if (i64 == 0) break;
          for (int64_t k = 0; k < i64; ++k) {
            int64_t len;
            SLUICE_RETURN_NOT_OK(ReadLength(n, &len));
            in_->ReadFixed(static_cast<size_t>(len), &bytes);
            SLUICE_RETURN_NOT_OK(PutBytes(n, keys, bytes));
            SLUICE_RETURN_NOT_OK(Value(n.children[0], values));
          }
        }
        return EndList(n, out, keys);
      }
      case Op::kArrayMap: {
        const Node& entry = n.children[0];
        while (true) {
          SLUICE_RETURN_NOT_OK(ReadBlockCount(n, n.min_item_size, &i64));
          if (i64 == 0) break;
          for (int64_t k = 0; k < i64; ++k) SLUICE_RETURN_NOT_OK(Fields(entry, out));
        }
        return EndList(n, out, out->child(0));
      }
      case Op::kRecord:
        SLUICE_RETURN_NOT_OK(Fields(n, out));
        MarkValid(out);
        return Status::OK();
    }
    return Status::OK();
  }

  // Reads the writer fields of record node `n` into the children of `out`.
  Status Fields(const Node& n, ColumnVector* out) {
    size_t num = n.children.size();
    for (size_t i = 0; i < num; ++i) {
      int32_t target = n.field_target[i];
      if (target < 0) {
        SLUICE_RETURN_NOT_OK(Skip(*n.children[i].writer, 0));
      } else {
        SLUICE_RETURN_NOT_OK(Value(n.children[i], out->child(target)));
      }
    }
    for (int32_t m : n.missing) AppendNullRaw(out->child(m));
    return Status::OK();
  }

  // The same for the top-level record, whose fields are the batch's columns.
  Status TopFields(const Node& n, ColumnBatch* batch) {
    size_t num = n.children.size();
    for (size_t i = 0; i < num; ++i) {
      int32_t target = n.field_target[i];
      if (target < 0) {
        SLUICE_RETURN_NOT_OK(Skip(*n.children[i].writer, 0));
      } else {
        SLUICE_RETURN_NOT_OK(Value(n.children[i], batch->column(target)));
      }
    }
    for (int32_t m : n.missing) AppendNullRaw(batch->column(m));
    return Status::OK();
  }

  Status Skip(const AvroSchema& s, int depth) {
    if (depth > kMaxSkipDepth) return Status::Corruption("Avro value nests too deeply");
    int64_t v;
    switch (s.type) {
      case AvroType::kNull:
        return Status::OK();
      case AvroType::kBoolean:
        return in_->Skip(1) ? Status::OK() : SkipTruncated(s);
      case AvroType::kInt:
      case AvroType::kLong:
      case AvroType::kEnum:
        return in_->ReadLong(&v) ? Status::OK() : SkipTruncated(s);
      case AvroType::kFloat:
        return in_->Skip(4) ? Status::OK() : SkipTruncated(s);
      case AvroType::kDouble:
        return in_->Skip(8) ? Status::OK() : SkipTruncated(s);
      case AvroType::kBytes:
      case AvroType::kString:
        if (!in_->ReadLong(&v) || v < 0 || !in_->Skip(static_cast<uint64_t>(v))) {
          return SkipTruncated(s);
        }
        return Status::OK();
      case AvroType::kFixed:
        return in_->Skip(static_cast<size_t>(s.fixed_size)) ? Status::OK() : SkipTruncated(s);
      case AvroType::kRecord:
        for (const AvroField& f : s.fields) SLUICE_RETURN_NOT_OK(Skip(*f.schema, depth + 1));
        return Status::OK();
      case AvroType::kUnion:
        if (!in_->ReadLong(&v)) return SkipTruncated(s);
        if (v < 0 || v >= static_cast<int64_t>(s.branches.size())) {
          return Status::Corruption("skipped union index " + std::to_string(v) +
                                    " out of range [0, " + std::to_string(s.branches.size()) + ")");
        }
        return Skip(*s.branches[static_cast<size_t>(v)], depth + 1);
      case AvroType::kArray:
      case AvroType::kMap: {
        int min_item = s.items->MinEncodedSize() + (s.type == AvroType::kMap ? 1 : 0);
        while (true) {
          int64_t count;
          if (!in_->ReadLong(&count)) return SkipTruncated(s);
          if (count == 0) return Status::OK();
          if (count < 0) {
            int64_t byte_size;
            if (!in_->ReadLong(&byte_size) || byte_size < 0 ||
                !in_->Skip(static_cast<uint64_t>(byte_size))) {
              return SkipTruncated(s);
            }
            continue;
          }
          if (min_item > 0) {
            if (static_cast<uint64_t>(count) > in_->remaining() / static_cast<uint64_t>(min_item)) {
              return SkipTruncated(s);
            }
          } else {
            budget_ -= count;
            if (budget_ < 0) return Status::Corruption("implausible item count in skipped value");
          }
          for (int64_t k = 0; k < count; ++k) {
            if (s.type == AvroType::kMap) {
              if (!in_->ReadLong(&v) || v < 0 || !in_->Skip(static_cast<uint64_t>(v))) {
                return SkipTruncated(s);
              }
            }
            SLUICE_RETURN_NOT_OK(Skip(*s.items, depth + 1));
          }
        }
      }
    }
    return Status::OK();
  }

 private:
  Status SkipTruncated(const AvroSchema& s) {
    return Status::Corruption("skipped " + std::string(AvroTypeName(s.type)) +
                              " value runs past the end of the block");
  }

  Status EndList(const Node& n, ColumnVector* out, const ColumnVector* items) {
    size_t count = items->validity().size();
    if (count > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      return BatchTooLarge(n, "2^31 items");
    }
    out->offsets().AppendValue<int32_t>(static_cast<int32_t>(count));
    MarkValid(out);
    return Status::OK();
  }

  AvroCursor* in_;
  int64_t budget_;
};

}  // namespace

AvroRecordDecoder::~AvroRecordDecoder() = default;

Result<std::unique_ptr<AvroRecordDecoder>> AvroRecordDecoder::Make(AvroSchemaPtr writer,
                                                                   DataTypePtr read_type) {
  if (read_type->root() != TypeRoot::kRow) {
    return Status::InvalidArgument("Avro read type must be a ROW, got " + read_type->ToString());
  }
  std::unique_ptr<AvroRecordDecoder> d(new AvroRecordDecoder());
  const AvroSchema* record = writer.get();
  if (writer->type == AvroType::kUnion) {
    for (size_t i = 0; i < writer->branches.size(); ++i) {
      if (writer->branches[i]->type == AvroType::kRecord) {
        if (d->top_union_record_branch_ >= 0) {
          return Status::NotSupported("Avro file schema is a union of several records");
        }
        d->top_union_record_branch_ = static_cast<int>(i);
        record = writer->branches[i].get();
      }
    }
  }
  if (record->type != AvroType::kRecord) {
    return Status::NotSupported("Avro file schema is not a record: " + DescribeAvroSchema(*writer));
  }
  SLUICE_ASSIGN_OR_RETURN(Node root, BuildAvroRecordPlan(*record, read_type->fields()));
  d->root_ = std::make_unique<Node>(std::move(root));
  d->min_record_size_ = writer->MinEncodedSize();
  d->writer_ = std::move(writer);
  d->read_type_ = std::move(read_type);
  return d;
}

Status AvroRecordDecoder::Decode(AvroCursor* in, int64_t n, ColumnBatch* batch) {
  DecodeLoop loop(in, static_cast<int64_t>(in->remaining()) + kZeroSizeSlack);
  for (int64_t row = 0; row < n; ++row) {
    Status st;
    if (top_union_record_branch_ >= 0) {
      int64_t branch;
      if (!in->ReadLong(&branch)) {
        st = Status::Corruption("record runs past the end of the block");
      } else if (branch != top_union_record_branch_) {
        st = Status::Corruption("top-level union index " + std::to_string(branch) +
                                ", expected the record branch " +
                                std::to_string(top_union_record_branch_));
      }
    }
    if (st.ok()) st = loop.TopFields(*root_, batch);
    if (!st.ok()) return st.WithContext("record " + std::to_string(row));
  }
  return Status::OK();
}

Status AvroRecordDecoder::Skip(AvroCursor* in, int64_t n) {
  DecodeLoop loop(in, static_cast<int64_t>(in->remaining()) + kZeroSizeSlack);
  for (int64_t row = 0; row < n; ++row) {
    Status st = loop.Skip(*writer_, 0);
    if (!st.ok()) return st.WithContext("record " + std::to_string(row));
  }
  return Status::OK();
}

void AvroRecordDecoder::FinishBatch(ColumnBatch* batch, int64_t rows) {
  for (int i = 0; i < batch->num_columns(); ++i) FinishVector(batch->column(i));
  batch->set_num_rows(rows);
}

}  // namespace sluice
