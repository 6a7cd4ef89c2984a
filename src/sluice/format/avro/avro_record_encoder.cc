#include "sluice/format/avro/avro_record_encoder.h"

#include <string>
#include <utility>
#include <vector>

#include "sluice/format/avro/avro_binary.h"

namespace sluice {

namespace {

enum class EncodeOp : unsigned char {
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kFloat,
  kDouble,
  kTimestampMillis,
  kTimestampMicros,
  kDecimal64,
  kDecimal128,
  kBytes,
  kArray,      // children[0] writes the elements
  kStringMap,  // Avro map: keys from child(0), children[0] writes the values
  kArrayMap,   // array of {key, value}: children[0] keys, children[1] values
  kRecord,     // children[i] writes field i
};

}  // namespace

struct AvroRecordEncoder::Node {
  EncodeOp op = EncodeOp::kBoolean;
  bool nullable = false;
  std::string path;
  std::vector<Node> children;
};

namespace {

using Node = AvroRecordEncoder::Node;

std::string Child(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

Result<Node> Build(const DataType& t, const std::string& path) {
  Node n;
  n.nullable = t.nullable();
  n.path = path;
  switch (t.root()) {
    case TypeRoot::kBoolean:
      n.op = EncodeOp::kBoolean;
      break;
    case TypeRoot::kTinyInt:
      n.op = EncodeOp::kInt8;
      break;
    case TypeRoot::kSmallInt:
      n.op = EncodeOp::kInt16;
      break;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      n.op = EncodeOp::kInt32;
      break;
    case TypeRoot::kBigInt:
      n.op = EncodeOp::kInt64;
      break;
    case TypeRoot::kFloat:
      n.op = EncodeOp::kFloat;
      break;
    case TypeRoot::kDouble:
      n.op = EncodeOp::kDouble;
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      n.op = t.precision() <= 3 ? EncodeOp::kTimestampMillis : EncodeOp::kTimestampMicros;
      break;
    case TypeRoot::kDecimal:
      n.op = t.IsCompactDecimal() ? EncodeOp::kDecimal64 : EncodeOp::kDecimal128;
      break;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant:
      n.op = EncodeOp::kBytes;
      break;
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      n.op = EncodeOp::kArray;
      SLUICE_ASSIGN_OR_RETURN(Node e, Build(*t.element(), Child(path, "element")));
      n.children.push_back(std::move(e));
      break;
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      bool multiset = t.root() == TypeRoot::kMultiset;
      const DataType& key = multiset ? *t.element() : *t.key();
      DataTypePtr value = multiset ? DataType::Int() : t.value();
      SLUICE_ASSIGN_OR_RETURN(Node v, Build(*value, Child(path, "value")));
      if (key.IsString()) {
        n.op = EncodeOp::kStringMap;
        n.children.push_back(std::move(v));
      } else {
        n.op = EncodeOp::kArrayMap;
        SLUICE_ASSIGN_OR_RETURN(Node k, Build(key, Child(path, "key")));
        n.children.push_back(std::move(k));
        n.children.push_back(std::move(v));
      }
      break;
    }
    case TypeRoot::kRow:
      n.op = EncodeOp::kRecord;
      for (const DataField& f : t.fields()) {
        SLUICE_ASSIGN_OR_RETURN(Node c, Build(*f.type, Child(path, f.name)));
        n.children.push_back(std::move(c));
      }
      break;
  }
  return n;
}

Status NullInNotNull(const Node& n) {
  return Status::InvalidArgument("field " + n.path + " is NOT NULL but holds a null");
}

Status Encode(const Node& n, const ColumnVector& v, int64_t i, Buffer* out) {
  if (v.IsNull(i)) {
    if (!n.nullable) return NullInNotNull(n);
    out->AppendValue<uint8_t>(0);
    return Status::OK();
  }
  if (n.nullable) out->AppendValue<uint8_t>(2);
  switch (n.op) {
    case EncodeOp::kBoolean:
      out->AppendValue<uint8_t>(v.data<uint8_t>()[i] != 0 ? 1 : 0);
      break;
    case EncodeOp::kInt8:
      PutAvroLong(out, v.data<int8_t>()[i]);
      break;
    case EncodeOp::kInt16:
      PutAvroLong(out, v.data<int16_t>()[i]);
      break;
    case EncodeOp::kInt32:
      PutAvroLong(out, v.data<int32_t>()[i]);
      break;
    case EncodeOp::kInt64:
      PutAvroLong(out, v.data<int64_t>()[i]);
      break;
    case EncodeOp::kFloat:
      PutAvroFloat(out, v.data<float>()[i]);
      break;
    case EncodeOp::kDouble:
      PutAvroDouble(out, v.data<double>()[i]);
      break;
    case EncodeOp::kTimestampMillis:
      PutAvroLong(out, v.data<Timestamp>()[i].millisecond);
      break;
    case EncodeOp::kTimestampMicros:
      PutAvroLong(out, v.data<Timestamp>()[i].ToEpochMicros());
      break;
    case EncodeOp::kDecimal64:
      PutDecimalBytes(v.data<int64_t>()[i], out);
      break;
    case EncodeOp::kDecimal128:
      PutDecimalBytes(v.data<int128_t>()[i], out);
      break;
    case EncodeOp::kBytes:
      PutAvroBytes(out, v.GetBytes(i));
      break;
    case EncodeOp::kArray: {
      int32_t begin = v.ListBegin(i), end = v.ListEnd(i);
      if (end > begin) {
        PutAvroLong(out, end - begin);
        for (int32_t k = begin; k < end; ++k) {
          SLUICE_RETURN_NOT_OK(Encode(n.children[0], *v.child(0), k, out));
        }
      }
      out->AppendValue<uint8_t>(0);
      break;
    }
    case EncodeOp::kStringMap: {
      int32_t begin = v.ListBegin(i), end = v.ListEnd(i);
      const ColumnVector& keys = *v.child(0);
      if (end > begin) {
        PutAvroLong(out, end - begin);
        for (int32_t k = begin; k < end; ++k) {
          if (keys.IsNull(k)) {
            return Status::InvalidArgument("field " + n.path + ": a map key is null");
          }
          PutAvroBytes(out, keys.GetBytes(k));
          SLUICE_RETURN_NOT_OK(Encode(n.children[0], *v.child(1), k, out));
        }
      }
      out->AppendValue<uint8_t>(0);
      break;
    }
    case EncodeOp::kArrayMap: {
      int32_t begin = v.ListBegin(i), end = v.ListEnd(i);
      if (end > begin) {
        PutAvroLong(out, end - begin);
        for (int32_t k = begin; k < end; ++k) {
          SLUICE_RETURN_NOT_OK(Encode(n.children[0], *v.child(0), k, out));
          SLUICE_RETURN_NOT_OK(Encode(n.children[1], *v.child(1), k, out));
        }
      }
      out->AppendValue<uint8_t>(0);
      break;
    }
    case EncodeOp::kRecord:
      for (size_t f = 0; f < n.children.size(); ++f) {
        SLUICE_RETURN_NOT_OK(Encode(n.children[f], *v.child(static_cast<int>(f)), i, out));
      }
      break;
  }
  return Status::OK();
}

}  // namespace

void PutDecimalBytes(int128_t v, Buffer* out) {
  uint8_t be[16];
  auto u = static_cast<unsigned __int128>(v);
  for (int k = 15; k >= 0; --k) {
    be[k] = static_cast<uint8_t>(u);
    u >>= 8;
  }
  int start = 0;
  while (start < 15 && ((be[start] == 0x00 && (be[start + 1] & 0x80) == 0) ||
                        (be[start] == 0xff && (be[start + 1] & 0x80) != 0))) {
    ++start;
  }
  PutAvroLong(out, 16 - start);
  out->Append(be + start, static_cast<size_t>(16 - start));
}

AvroRecordEncoder::~AvroRecordEncoder() = default;

Result<std::unique_ptr<AvroRecordEncoder>> AvroRecordEncoder::Make(DataTypePtr write_type) {
  if (write_type->root() != TypeRoot::kRow) {
    return Status::InvalidArgument("Avro write type must be a ROW, got " + write_type->ToString());
  }
  std::unique_ptr<AvroRecordEncoder> e(new AvroRecordEncoder());
  SLUICE_ASSIGN_OR_RETURN(Node root, Build(*write_type->WithNullable(false), ""));
  e->root_ = std::make_unique<Node>(std::move(root));
  e->write_type_ = std::move(write_type);
  return e;
}

Status AvroRecordEncoder::EncodeRow(const ColumnBatch& batch, int64_t row, Buffer* out) const {
  for (size_t f = 0; f < root_->children.size(); ++f) {
    SLUICE_RETURN_NOT_OK(Encode(root_->children[f], *batch.column(static_cast<int>(f)), row, out));
  }
  return Status::OK();
}

}  // namespace sluice
