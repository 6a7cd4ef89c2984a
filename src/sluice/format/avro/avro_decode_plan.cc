#include "sluice/format/avro/avro_decode_plan.h"

#include <utility>

namespace sluice {

namespace {

using Op = AvroDecodeOp;
using Node = AvroDecodeNode;
constexpr int32_t kNullBranch = kAvroNullBranch;
constexpr int32_t kBadBranch = kAvroUnreadableBranch;

std::string Child(const std::string& path, const std::string& name) {
  return path.empty() ? name : path + "." + name;
}

Node SkipNode(const AvroSchema& writer, const std::string& path) {
  Node n;
  n.op = Op::kSkip;
  n.writer = &writer;
  n.path = path;
  return n;
}

Status Mismatch(const AvroSchema& w, const DataType& r, const std::string& path) {
  return Status::NotSupported("field " + (path.empty() ? std::string("<root>") : path) +
                              ": cannot read Avro " + DescribeAvroSchema(w) + " as " +
                              r.ToString());
}

bool IsStringOrBinary(const DataType& t) {
  return t.IsString() || t.IsBinary() || t.root() == TypeRoot::kVariant;
}

Result<Node> Build(const AvroSchema& w, const DataType& r, const std::string& path);

Result<Node> BuildRecord(const AvroSchema& w, const std::vector<DataField>& fields,
                         const std::string& path) {
  Node n;
  n.op = Op::kRecord;
  n.writer = &w;
  n.path = path;
  std::vector<bool> matched(fields.size(), false);
  for (const AvroField& wf : w.fields) {
    int target = -1;
    for (size_t j = 0; j < fields.size(); ++j) {
      if (fields[j].name == wf.name) {
        target = static_cast<int>(j);
        break;
      }
    }
    std::string child_path = Child(path, wf.name);
    if (target < 0) {
      n.children.push_back(SkipNode(*wf.schema, child_path));
    } else {
      SLUICE_ASSIGN_OR_RETURN(Node child, Build(*wf.schema, *fields[target].type, child_path));
      n.children.push_back(std::move(child));
      matched[target] = true;
    }
    n.field_target.push_back(target);
  }
  for (size_t j = 0; j < fields.size(); ++j) {
    if (!matched[j]) n.missing.push_back(static_cast<int32_t>(j));
  }
  return n;
}

Result<Node> BuildMapLike(const AvroSchema& w, const DataType& r, const std::string& path) {
  bool multiset = r.root() == TypeRoot::kMultiset;
  const DataTypePtr& key = multiset ? r.element() : r.key();
  DataTypePtr value = multiset ? DataType::Int(false) : r.value();
  Node n;
  n.writer = &w;
  n.path = path;
  if (w.type == AvroType::kMap) {
    if (!IsStringOrBinary(*key)) return Mismatch(w, r, path);
    n.op = Op::kMap;
    SLUICE_ASSIGN_OR_RETURN(Node v, Build(*w.items, *value, Child(path, "value")));
    n.min_item_size = 1 + w.items->MinEncodedSize();
    n.children.push_back(std::move(v));
    return n;
  }
  if (w.type == AvroType::kArray && w.items->type == AvroType::kRecord &&
      w.items->FieldIndex("key") >= 0) {
    n.op = Op::kArrayMap;
    std::vector<DataField> entry(2);
    entry[0].name = "key";
    entry[0].type = key;
    entry[1].name = "value";
    entry[1].type = value;
    SLUICE_ASSIGN_OR_RETURN(Node e, BuildRecord(*w.items, entry, path));
    n.min_item_size = w.items->MinEncodedSize();
    n.children.push_back(std::move(e));
    return n;
  }
  return Mismatch(w, r, path);
}

Result<Node> Build(const AvroSchema& w, const DataType& r, const std::string& path) {
  Node n;
  n.writer = &w;
  n.path = path;
  if (w.type == AvroType::kUnion) {
    int nb = w.NullBranchOfOptional();
    if (nb >= 0) {
      n.op = Op::kOptional;
      n.null_branch = nb;
      SLUICE_ASSIGN_OR_RETURN(Node child, Build(*w.branches[1 - nb], r, path));
      n.children.push_back(std::move(child));
      return n;
    }
    n.op = Op::kUnion;
    Status first_error;
    bool any_value_branch = false;
    for (const AvroSchemaPtr& b : w.branches) {
      if (b->type == AvroType::kNull) {
        n.branch_child.push_back(kNullBranch);
        continue;
      }
      auto child = Build(*b, r, path);
      if (child.ok()) {
        any_value_branch = true;
        n.branch_child.push_back(static_cast<int32_t>(n.children.size()));
        n.children.push_back(std::move(child).value());
      } else {
        if (first_error.ok()) first_error = child.status();
        n.branch_child.push_back(kBadBranch);
      }
    }
    if (!any_value_branch && !first_error.ok()) return first_error;
    return n;
  }
  if (w.type == AvroType::kNull) {
    n.op = Op::kNull;
    return n;
  }
  AvroType t = w.type;
  AvroLogicalType lt = w.logical_type;
  switch (r.root()) {
    case TypeRoot::kBoolean:
      if (t == AvroType::kBoolean) n.op = Op::kBoolean;
      break;
    case TypeRoot::kTinyInt:
      if (t == AvroType::kInt) n.op = Op::kIntToInt8;
      break;
    case TypeRoot::kSmallInt:
      if (t == AvroType::kInt) n.op = Op::kIntToInt16;
      break;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
      if (t == AvroType::kInt) n.op = Op::kIntToInt32;
      break;
    case TypeRoot::kTime:
      if (t == AvroType::kInt) n.op = Op::kIntToInt32;
      if (t == AvroType::kLong && lt == AvroLogicalType::kTimeMicros) {
        n.op = Op::kTimeMicrosToMillis;
      }
      break;
    case TypeRoot::kBigInt:
      if (t == AvroType::kInt) n.op = Op::kIntToInt64;
      if (t == AvroType::kLong) n.op = Op::kLongToInt64;
      break;
    case TypeRoot::kFloat:
      if (t == AvroType::kInt) n.op = Op::kIntToFloat;
      if (t == AvroType::kLong) n.op = Op::kLongToFloat;
      if (t == AvroType::kFloat) n.op = Op::kFloatToFloat;
      break;
    case TypeRoot::kDouble:
      if (t == AvroType::kInt) n.op = Op::kIntToDouble;
      if (t == AvroType::kLong) n.op = Op::kLongToDouble;
      if (t == AvroType::kFloat) n.op = Op::kFloatToDouble;
      if (t == AvroType::kDouble) n.op = Op::kDoubleToDouble;
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      if (t == AvroType::kLong) {
        switch (lt) {
          case AvroLogicalType::kTimestampMillis:
          case AvroLogicalType::kLocalTimestampMillis:
            n.op = Op::kMillisToTimestamp;
            break;
          case AvroLogicalType::kTimestampMicros:
          case AvroLogicalType::kLocalTimestampMicros:
            n.op = Op::kMicrosToTimestamp;
            break;
          case AvroLogicalType::kTimestampNanos:
          case AvroLogicalType::kLocalTimestampNanos:
            n.op = Op::kNanosToTimestamp;
            break;
          default:
            // A plain long: the unit Java would have written for this precision.
            n.op = r.precision() <= 3 ? Op::kMillisToTimestamp : Op::kMicrosToTimestamp;
            break;
        }
      }
      break;
    case TypeRoot::kDecimal:
      if (lt == AvroLogicalType::kDecimal && (t == AvroType::kBytes || t == AvroType::kFixed)) {
        if (w.scale != r.scale()) {
          return Status::NotSupported("field " + path + ": Avro decimal scale " +
                                      std::to_string(w.scale) + " differs from " + r.ToString());
        }
        bool compact = r.IsCompactDecimal();
        if (t == AvroType::kBytes) {
          n.op = compact ? Op::kDecimalBytesToInt64 : Op::kDecimalBytesToInt128;
        } else {
          n.op = compact ? Op::kDecimalFixedToInt64 : Op::kDecimalFixedToInt128;
          n.fixed_size = w.fixed_size;
        }
      }
      break;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant:
      if (t == AvroType::kBytes || t == AvroType::kString) n.op = Op::kBytes;
      if (t == AvroType::kFixed) {
        n.op = Op::kFixedToBytes;
        n.fixed_size = w.fixed_size;
      }
      if (t == AvroType::kEnum && r.IsString()) n.op = Op::kEnumToString;
      break;
    case TypeRoot::kArray:
    case TypeRoot::kVector:
      if (t == AvroType::kArray) {
        n.op = Op::kArray;
        SLUICE_ASSIGN_OR_RETURN(Node e, Build(*w.items, *r.element(), Child(path, "element")));
        n.min_item_size = w.items->MinEncodedSize();
        n.children.push_back(std::move(e));
      }
      break;
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
      return BuildMapLike(w, r, path);
    case TypeRoot::kRow:
      if (t == AvroType::kRecord) return BuildRecord(w, r.fields(), path);
      break;
  }
  if (n.op == Op::kSkip) return Mismatch(w, r, path);
  return n;
}

}  // namespace

std::string DescribeAvroSchema(const AvroSchema& s) {
  std::string json = AvroSchemaToJson(s);
  if (json.size() > 100) json = json.substr(0, 100) + "...";
  return json;
}

Result<AvroDecodeNode> BuildAvroRecordPlan(const AvroSchema& record,
                                           const std::vector<DataField>& fields) {
  return BuildRecord(record, fields, "");
}

}  // namespace sluice
