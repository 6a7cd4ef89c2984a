#include "sluice/format/parquet/column_assembler.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "sluice/batch/column_take.h"
#include "sluice/value.h"

namespace sluice::parquet {

namespace {

using Kind = ReadNode::Kind;

Status Mismatch(const SchemaNode& node, const DataType& type, const std::string& why) {
  return Status::NotSupported("parquet column '" + node.path + "' cannot be read as " +
                              type.ToString() + ": " + why);
}

TimeUnit TimestampUnit(const SchemaElement& e, const DataType& type) {
  if (e.logical_type && (e.logical_type->kind == LogicalType::Kind::kTimestamp ||
                         e.logical_type->kind == LogicalType::Kind::kTime)) {
    return e.logical_type->unit;
  }
  if (e.converted_type == ConvertedType::kTimestampMillis ||
      e.converted_type == ConvertedType::kTimeMillis) {
    return TimeUnit::kMillis;
  }
  if (e.converted_type == ConvertedType::kTimestampMicros ||
      e.converted_type == ConvertedType::kTimeMicros) {
    return TimeUnit::kMicros;
  }
  int p = type.precision();
  return p <= 3 ? TimeUnit::kMillis : p <= 6 ? TimeUnit::kMicros : TimeUnit::kNanos;
}

bool IsUnsigned(const SchemaElement& e) {
  if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kInteger) {
    return !e.logical_type->is_signed;
  }
  return e.converted_type == ConvertedType::kUint8 || e.converted_type == ConvertedType::kUint16 ||
         e.converted_type == ConvertedType::kUint32 || e.converted_type == ConvertedType::kUint64;
}

Result<LeafConversion> ChooseConversion(const SchemaNode& node, const DataType& type) {
  const SchemaElement& e = *node.element;
  const PhysicalType pt = *e.type;
  using C = LeafConversion;
  switch (type.root()) {
    case TypeRoot::kBoolean:
      if (pt == PhysicalType::kBoolean) return C::kBool;
      break;
    case TypeRoot::kTinyInt:
      if (pt == PhysicalType::kInt32) return C::kInt32ToInt8;
      break;
    case TypeRoot::kSmallInt:
      if (pt == PhysicalType::kInt32) return C::kInt32ToInt16;
      break;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
      if (pt == PhysicalType::kInt32) return C::kInt32ToInt32;
      break;
    case TypeRoot::kBigInt:
      if (pt == PhysicalType::kInt32) return IsUnsigned(e) ? C::kUInt32ToInt64 : C::kInt32ToInt64;
      if (pt == PhysicalType::kInt64) return C::kInt64ToInt64;
      break;
    case TypeRoot::kTime:
      if (pt == PhysicalType::kInt32) return C::kInt32ToInt32;
      if (pt == PhysicalType::kInt64) {
        TimeUnit u = TimestampUnit(e, type);
        if (u == TimeUnit::kMicros) return C::kMicrosToTimeMillis;
        if (u == TimeUnit::kNanos) return C::kNanosToTimeMillis;
      }
      break;
    case TypeRoot::kFloat:
      if (pt == PhysicalType::kFloat) return C::kFloat;
      if (pt == PhysicalType::kFixedLenByteArray && e.type_length == 2) return C::kHalfToFloat;
      break;
    case TypeRoot::kDouble:
      if (pt == PhysicalType::kDouble) return C::kDouble;
      if (pt == PhysicalType::kFloat) return C::kFloatToDouble;
      break;
    case TypeRoot::kDecimal: {
      bool compact = type.IsCompactDecimal();
      if (pt == PhysicalType::kInt32) return compact ? C::kInt32ToInt64 : C::kInt32ToInt128;
      if (pt == PhysicalType::kInt64) {
        if (IsUnsigned(e))
          return compact ? Mismatch(node, type, "UINT64 needs DECIMAL(20)")
                         : Result<LeafConversion>(C::kUInt64ToInt128);
        return compact ? C::kInt64ToInt64 : C::kInt64ToInt128;
      }
      if (pt == PhysicalType::kByteArray || pt == PhysicalType::kFixedLenByteArray) {
        return compact ? C::kBytesToDecimal64 : C::kBytesToDecimal128;
      }
      break;
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
      if (pt == PhysicalType::kByteArray || pt == PhysicalType::kFixedLenByteArray) {
        return C::kBytes;
      }
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      if (pt == PhysicalType::kInt96) return C::kInt96ToTimestamp;
      if (pt == PhysicalType::kInt64) {
        TimeUnit u = TimestampUnit(e, type);
        return u == TimeUnit::kMillis   ? C::kMillisToTimestamp
               : u == TimeUnit::kMicros ? C::kMicrosToTimestamp
                                        : C::kNanosToTimestamp;
      }
      break;
    default:
      break;
  }
  return Mismatch(node, type,
                  "physical type " + std::to_string(static_cast<int>(pt)) + " does not convert");
}

const SchemaNode* FindChild(const SchemaNode& group, const DataField& field) {
  bool by_id = false;
  for (const auto& c : group.children) by_id |= c->has_field_id();
  for (const auto& c : group.children) {
    if (by_id ? c->element->field_id == field.id : c->element->name == field.name) {
      return c.get();
    }
  }
  return nullptr;
}

struct PlanBuilder {
  ReadPlan* plan;

  Result<std::unique_ptr<ReadNode>> Build(const DataTypePtr& type, const SchemaNode* file,
                                          int16_t slot_rep, int16_t slot_def, bool as_element,
                                          int depth) {
    auto node = std::make_unique<ReadNode>();
    node->type = type;
    node->slot_rep = slot_rep;
    node->slot_def = slot_def;
    node->file_node = file;
    if (file == nullptr) return node;  // kMissing
    if (depth > ParquetSchema::kMaxDepth) return Mismatch(*file, *type, "nested too deeply");
    node->null_def = file->def_level;
    const bool repeated_here = file->is_repeated() && !as_element;
    switch (type->root()) {
      case TypeRoot::kArray:
      case TypeRoot::kVector:
      case TypeRoot::kMap:
      case TypeRoot::kMultiset: {
        const bool is_map = type->root() == TypeRoot::kMap || type->root() == TypeRoot::kMultiset;
        const SchemaNode* repeated;
        if (repeated_here) {
          node->null_def = slot_def;  // An unannotated repeated field is never null.
        } else if (file->is_leaf()) {
          return Mismatch(*file, *type, "the file column is not a list or map");
        }
        // A repeated group as the element of an outer legacy list is itself a list.
        const bool nested_legacy = file->is_repeated() && as_element;
        std::vector<std::pair<DataTypePtr, const SchemaNode*>> parts;
        if (is_map) {
          SLUICE_ASSIGN_OR_RETURN(MapShape shape, ResolveMap(*file));
          repeated = shape.repeated;
          DataTypePtr value_type =
              type->root() == TypeRoot::kMultiset ? DataType::Int(false) : type->value();
          parts = {{type->key(), shape.key}, {value_type, shape.value}};
        } else {
          SLUICE_ASSIGN_OR_RETURN(
              ListShape shape,
              ResolveList(*file, type->element()->root() == TypeRoot::kRow, nested_legacy));
          repeated = shape.repeated;
          parts = {{type->element(), shape.element}};
        }
        node->kind = is_map ? Kind::kMap : Kind::kList;
        node->elem_rep = repeated->rep_level;
        node->elem_def = repeated->def_level;
        for (auto& [t, f] : parts) {
          SLUICE_ASSIGN_OR_RETURN(auto child, Build(t, f, repeated->rep_level, repeated->def_level,
                                                    f == repeated, depth + 1));
          node->children.push_back(std::move(child));
        }
        if (node->children[0]->kind == Kind::kMissing) {
          node->kind = Kind::kMissing;
          node->children.clear();
          return node;
        }
        node->first_leaf = node->children[0]->first_leaf;
        return node;
      }
      case TypeRoot::kRow: {
        if (file->is_leaf() || repeated_here) {
          return Mismatch(*file, *type, "the file column is not a group");
        }
        for (const DataField& f : type->fields()) {
          const SchemaNode* c = FindChild(*file, f);
          SLUICE_ASSIGN_OR_RETURN(auto child,
                                  Build(f.type, c, slot_rep, slot_def, false, depth + 1));
          if (node->first_leaf < 0 && child->kind != Kind::kMissing) {
            node->first_leaf = child->first_leaf;
          }
          node->children.push_back(std::move(child));
        }
        if (node->first_leaf < 0) {
          node->children.clear();
          return node;  // No field of the row is in the file: the row reads as null.
        }
        node->kind = Kind::kStruct;
        return node;
      }
      case TypeRoot::kVariant:
        return Mismatch(*file, *type, "VARIANT is not supported by the Parquet reader yet");
      default: {
        if (!file->is_leaf() || repeated_here) {
          return Mismatch(*file, *type, "the file column is not a primitive");
        }
        SLUICE_ASSIGN_OR_RETURN(node->conversion, ChooseConversion(*file, *type));
        node->kind = Kind::kLeaf;
        node->leaf = static_cast<int>(plan->leaves.size());
        node->first_leaf = node->leaf;
        plan->leaves.push_back(file);
        return node;
      }
    }
  }
};

}  // namespace

Result<ReadPlan> MakeReadPlan(const ParquetSchema& schema, const DataType& read_type) {
  ReadPlan plan;
  PlanBuilder b{&plan};
  for (const DataField& f : read_type.fields()) {
    const SchemaNode* c = FindChild(schema.root(), f);
    SLUICE_ASSIGN_OR_RETURN(auto node, b.Build(f.type, c, 0, 0, false, 0));
    plan.columns.push_back(std::move(node));
  }
  return plan;
}

// --- Cursors ---

Status ColumnAssembler::Reset(std::vector<ColumnChunkData>* chunks, int64_t num_rows) {
  cursors_.assign(plan_->leaves.size(), Cursor{});
  range_end_.assign(plan_->leaves.size(), 0);
  for (size_t i = 0; i < plan_->leaves.size(); ++i) {
    ColumnChunkData& d = (*chunks)[i];
    const SchemaNode& leaf = *plan_->leaves[i];
    cursors_[i].data = &d;
    int64_t records = d.num_levels;
    if (leaf.rep_level > 0) {
      records = 0;
      for (int16_t r : d.rep_levels) records += r == 0;
      if (d.num_levels > 0 && d.rep_levels[0] != 0) {
        return Status::Corruption("column '" + leaf.path +
                                  "': the first repetition level is not 0");
      }
    }
    if (records != num_rows) {
      return Status::Corruption("column '" + leaf.path + "' holds " + std::to_string(records) +
                                " rows, the row group " + std::to_string(num_rows));
    }
    int64_t values = d.num_levels;
    if (!d.def_levels.empty()) {
      values = 0;
      for (int16_t v : d.def_levels) values += v == leaf.def_level;
    }
    if (values != d.values.count()) {
      return Status::Corruption("column '" + leaf.path + "' holds " +
                                std::to_string(d.values.count()) + " values for " +
                                std::to_string(values) + " non-null levels");
    }
  }
  records_left_ = num_rows;
  return Status::OK();
}

void ColumnAssembler::Start(std::vector<ColumnChunkData>* chunks, int64_t num_rows) {
  cursors_.assign(plan_->leaves.size(), Cursor{});
  range_end_.assign(plan_->leaves.size(), 0);
  for (size_t i = 0; i < plan_->leaves.size(); ++i) cursors_[i].data = &(*chunks)[i];
  records_left_ = num_rows;
}

void ColumnAssembler::Release(int leaf) {
  Cursor& cur = cursors_[static_cast<size_t>(leaf)];
  cur.data->DropPrefix(cur.level, cur.value);
  cur.level = 0;
  cur.value = 0;
}

int64_t ColumnAssembler::AdvanceLevels(int leaf, int64_t from, int64_t n, int64_t* values) const {
  const ColumnChunkData& d = *cursors_[leaf].data;
  const SchemaNode& node = *plan_->leaves[leaf];
  int64_t to = from + n;
  if (node.rep_level > 0) {
    const int16_t* rep = d.rep_levels.data();
    int64_t seen = 0;
    to = from;
    while (to < d.num_levels) {
      if (rep[to] == 0 && seen++ == n) break;
      ++to;
    }
  }
  if (d.def_levels.empty()) {
    *values = to - from;
  } else {
    const int16_t* def = d.def_levels.data();
    int64_t c = 0;
    for (int64_t i = from; i < to; ++i) c += def[i] == node.def_level;
    *values = c;
  }
  return to;
}

void ColumnAssembler::Skip(int64_t n) {
  for (size_t i = 0; i < cursors_.size(); ++i) {
    int64_t values;
    cursors_[i].level = AdvanceLevels(static_cast<int>(i), cursors_[i].level, n, &values);
    cursors_[i].value += values;
  }
  records_left_ -= n;
}

Status ColumnAssembler::Append(int64_t n, ColumnVector* const* out) {
  for (size_t i = 0; i < cursors_.size(); ++i) {
    int64_t values;
    range_end_[i] = AdvanceLevels(static_cast<int>(i), cursors_[i].level, n, &values);
  }
  for (size_t c = 0; c < plan_->columns.size(); ++c) {
    const ReadNode& node = *plan_->columns[c];
    if (node.kind == Kind::kMissing) {
      AppendNulls(n, out[c]);
    } else {
      SLUICE_RETURN_NOT_OK(Assemble(node, out[c]));
    }
  }
  for (size_t i = 0; i < cursors_.size(); ++i) cursors_[i].level = range_end_[i];
  records_left_ -= n;
  return Status::OK();
}

Status ColumnAssembler::Assemble(const ReadNode& node, ColumnVector* out) {
  switch (node.kind) {
    case Kind::kLeaf:
      return AssembleLeaf(node, out);
    case Kind::kStruct:
      return AssembleStruct(node, out);
    case Kind::kList:
    case Kind::kMap:
      return AssembleNested(node, out);
    case Kind::kMissing:
      break;
  }
  return Status::Internal("assembling a missing column");
}

namespace {

// Levels of one leaf over a range. Absent repetition levels (a flat column) read as 0, absent
// definition levels (a required column, or no nulls) as the leaf's maximum.
struct Levels {
  const int16_t* def;
  const int16_t* rep;
  int16_t max_def;
  int16_t Def(int64_t i) const { return def ? def[i] : max_def; }
  int16_t Rep(int64_t i) const { return rep ? rep[i] : 0; }
};

Levels LevelsOf(const ColumnChunkData& d, const SchemaNode& leaf) {
  return Levels{d.def_levels.empty() ? nullptr : d.def_levels.data(),
                d.rep_levels.empty() ? nullptr : d.rep_levels.data(), leaf.def_level};
}

Status SizeMismatch(const ReadNode& node, int64_t expected, int64_t got) {
  return Status::Corruption("column '" + node.file_node->path + "': levels give " +
                            std::to_string(got) + " values where " + std::to_string(expected) +
                            " are needed");
}

inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

inline int128_t BigEndianToInt128(const uint8_t* p, int32_t len) {
  // Sign-extend from the first byte.
  using u128 = unsigned __int128;
  u128 v = (len > 0 && (p[0] & 0x80)) ? ~u128{0} : u128{0};
  for (int32_t i = 0; i < len; ++i) v = (v << 8) | p[i];
  return static_cast<int128_t>(v);
}

float HalfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      exp = 127 - 15 + 1;
      while ((mant & 0x400) == 0) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ff;
      bits = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Writes slot i's value for every present slot: dst[i] = f(pointer to the next source value).
template <typename Dst, typename F>
void ScatterFixed(const uint8_t* src, int width, const uint8_t* present, int64_t slots, Dst* dst,
                  F&& f) {
  if (present == nullptr) {
    for (int64_t i = 0; i < slots; ++i) dst[i] = f(src + i * width);
    return;
  }
  int64_t v = 0;
  for (int64_t i = 0; i < slots; ++i) {
    if (present[i]) {
      dst[i] = f(src + v * width);
      ++v;
    } else {
      dst[i] = Dst{};
    }
  }
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

Status ColumnAssembler::AssembleLeaf(const ReadNode& node, ColumnVector* out) {
  const Cursor& cur = cursors_[node.leaf];
  const ColumnChunkData& d = *cur.data;
  const int64_t begin = cur.level, end = range_end_[node.leaf];
  Levels lv = LevelsOf(d, *plan_->leaves[node.leaf]);
  // Slots and their presence.
  int64_t slots = 0, nulls = 0;
  const uint8_t* present = nullptr;
  if (lv.def == nullptr && lv.rep == nullptr) {
    slots = end - begin;
  } else if (lv.rep == nullptr && node.slot_def == 0) {
    // Flat: every level is a slot; presence without a branch per level.
    slots = end - begin;
    present_.resize(static_cast<size_t>(slots));
    uint8_t* p = present_.data();
    const int16_t* def = lv.def + begin;
    const int16_t null_def = node.null_def;
    for (int64_t j = 0; j < slots; ++j) {
      p[j] = def[j] >= null_def;
      nulls += def[j] < null_def;
    }
    if (nulls > 0) present = p;
  } else {
    present_.resize(static_cast<size_t>(end - begin));
    for (int64_t j = begin; j < end; ++j) {
      int16_t def = lv.Def(j);
      if (lv.Rep(j) <= node.slot_rep && def >= node.slot_def) {
        bool p = def >= node.null_def;
        present_[static_cast<size_t>(slots++)] = p;
        nulls += !p;
      }
    }
    if (nulls > 0) present = present_.data();
  }
  const int64_t values = slots - nulls;
  if (cur.value + values > d.values.count()) {
    return SizeMismatch(node, d.values.count() - cur.value, values);
  }
  const int64_t old = out->size();
  const ColumnValues& src = d.values;
  const int width = src.width();
  const uint8_t* base = src.is_byte_array() ? nullptr : src.data() + cur.value * width;
  using C = LeafConversion;
  if (out->kind() == PhysicalKind::kBytes) {
    if (node.conversion != C::kBytes) return Status::Internal("bad bytes conversion");
    out->Resize(old + slots);
    int32_t* off = out->offset_data() + old;
    Buffer& bytes = out->values();
    size_t byte_begin, byte_len;
    if (src.is_byte_array()) {
      byte_begin = static_cast<size_t>(src.offsets()[cur.value]);
      byte_len = static_cast<size_t>(src.offsets()[cur.value + values]) - byte_begin;
    } else {
      byte_begin = static_cast<size_t>(cur.value * width);
      byte_len = static_cast<size_t>(values * width);
    }
    size_t out_begin = bytes.size();
    if (out_begin + byte_len > static_cast<size_t>(INT32_MAX)) {
      return Status::NotSupported("column '" + node.file_node->path +
                                  "': more than 2 GiB of bytes in one batch");
    }
    if (byte_len > 0) bytes.Append(src.data() + byte_begin, byte_len);
    int64_t v = cur.value;
    int32_t pos = off[0];
    const int32_t* so = src.is_byte_array() ? src.offsets() : nullptr;
    if (present == nullptr && so != nullptr) {
      // Every slot holds a value: the source's offsets, shifted (a loop the compiler widens).
      const int32_t shift = pos - so[v];
      const int32_t* from = so + v + 1;
      for (int64_t i = 0; i < slots; ++i) off[i + 1] = from[i] + shift;
    } else {
      for (int64_t i = 0; i < slots; ++i) {
        if (present == nullptr || present[i]) {
          pos += so ? so[v + 1] - so[v] : width;
          ++v;
        }
        off[i + 1] = pos;
      }
    }
  } else {
    out->Resize(old + slots);
    uint8_t* dst = out->values().data();
    switch (node.conversion) {
      case C::kBool:
        ScatterFixed(base, 1, present, slots, dst + old, [](const uint8_t* p) { return *p; });
        break;
      case C::kInt32ToInt8:
        ScatterFixed(base, 4, present, slots, reinterpret_cast<int8_t*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<int8_t>(Load<int32_t>(p)); });
        break;
      case C::kInt32ToInt16:
        ScatterFixed(base, 4, present, slots, reinterpret_cast<int16_t*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<int16_t>(Load<int32_t>(p)); });
        break;
      case C::kInt32ToInt32:
        if (present == nullptr) {
          if (slots > 0) std::memcpy(dst + old * 4, base, static_cast<size_t>(slots) * 4);
        } else {
          ScatterFixed(base, 4, present, slots, reinterpret_cast<int32_t*>(dst) + old,
                       [](const uint8_t* p) { return Load<int32_t>(p); });
        }
        break;
      case C::kInt32ToInt64:
        ScatterFixed(base, 4, present, slots, reinterpret_cast<int64_t*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<int64_t>(Load<int32_t>(p)); });
        break;
      case C::kUInt32ToInt64:
        ScatterFixed(base, 4, present, slots, reinterpret_cast<int64_t*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<int64_t>(Load<uint32_t>(p)); });
        break;
      case C::kInt64ToInt64:
        if (present == nullptr) {
          if (slots > 0) std::memcpy(dst + old * 8, base, static_cast<size_t>(slots) * 8);
        } else {
          ScatterFixed(base, 8, present, slots, reinterpret_cast<int64_t*>(dst) + old,
                       [](const uint8_t* p) { return Load<int64_t>(p); });
        }
        break;
      case C::kInt32ToInt128:
        ScatterFixed(base, 4, present, slots, reinterpret_cast<int128_t*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<int128_t>(Load<int32_t>(p)); });
        break;
      case C::kInt64ToInt128:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<int128_t*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<int128_t>(Load<int64_t>(p)); });
        break;
      case C::kUInt64ToInt128:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<int128_t*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<int128_t>(Load<uint64_t>(p)); });
        break;
      case C::kFloat:
        ScatterFixed(base, 4, present, slots, reinterpret_cast<float*>(dst) + old,
                     [](const uint8_t* p) { return Load<float>(p); });
        break;
      case C::kDouble:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<double*>(dst) + old,
                     [](const uint8_t* p) { return Load<double>(p); });
        break;
      case C::kFloatToDouble:
        ScatterFixed(base, 4, present, slots, reinterpret_cast<double*>(dst) + old,
                     [](const uint8_t* p) { return static_cast<double>(Load<float>(p)); });
        break;
      case C::kHalfToFloat:
        ScatterFixed(base, 2, present, slots, reinterpret_cast<float*>(dst) + old,
                     [](const uint8_t* p) { return HalfToFloat(Load<uint16_t>(p)); });
        break;
      case C::kMillisToTimestamp:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<Timestamp*>(dst) + old,
                     [](const uint8_t* p) {
                       return Timestamp{Load<int64_t>(p), 0};
                     });
        break;
      case C::kMicrosToTimestamp:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<Timestamp*>(dst) + old,
                     [](const uint8_t* p) { return Timestamp::FromEpochMicros(Load<int64_t>(p)); });
        break;
      case C::kNanosToTimestamp:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<Timestamp*>(dst) + old,
                     [](const uint8_t* p) { return Timestamp::FromEpochNanos(Load<int64_t>(p)); });
        break;
      case C::kInt96ToTimestamp:
        ScatterFixed(base, 12, present, slots, reinterpret_cast<Timestamp*>(dst) + old,
                     [](const uint8_t* p) {
                       // Nanos of day (may be negative in Paimon's truncating form) + Julian day.
                       int64_t nanos_of_day = Load<int64_t>(p);
                       int64_t julian = Load<int32_t>(p + 8);
                       int128_t nanos = static_cast<int128_t>(julian - 2440588) * 86400000000000LL +
                                        nanos_of_day;
                       int64_t ms = static_cast<int64_t>(nanos / 1000000);
                       int64_t rem = static_cast<int64_t>(nanos % 1000000);
                       if (rem < 0) {
                         rem += 1000000;
                         --ms;
                       }
                       return Timestamp{ms, static_cast<int32_t>(rem)};
                     });
        break;
      case C::kMicrosToTimeMillis:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<int32_t*>(dst) + old,
                     [](const uint8_t* p) {
                       return static_cast<int32_t>(FloorDiv(Load<int64_t>(p), 1000));
                     });
        break;
      case C::kNanosToTimeMillis:
        ScatterFixed(base, 8, present, slots, reinterpret_cast<int32_t*>(dst) + old,
                     [](const uint8_t* p) {
                       return static_cast<int32_t>(FloorDiv(Load<int64_t>(p), 1000000));
                     });
        break;
      case C::kBytesToDecimal64:
      case C::kBytesToDecimal128: {
        const bool wide = node.conversion == C::kBytesToDecimal128;
        int64_t v = cur.value;
        for (int64_t i = 0; i < slots; ++i) {
          int128_t x = 0;
          if (present == nullptr || present[i]) {
            int32_t len = width;
            const uint8_t* p = src.is_byte_array() ? src.BytesAt(v, &len) : src.data() + v * width;
            if (len > 16) {
              return Status::Corruption("column '" + node.file_node->path + "': decimal of " +
                                        std::to_string(len) + " bytes");
            }
            x = BigEndianToInt128(p, len);
            ++v;
          }
          if (wide) {
            std::memcpy(dst + (old + i) * 16, &x, 16);
          } else {
            int64_t y = static_cast<int64_t>(x);
            std::memcpy(dst + (old + i) * 8, &y, 8);
          }
        }
        break;
      }
      case C::kBytes:
        return Status::Internal("bytes conversion into a fixed-width vector");
    }
  }
  if (present != nullptr && slots > 0) {
    uint8_t* validity = out->MutableValidity();
    std::memcpy(validity + old, present, static_cast<size_t>(slots));
  }
  cursors_[node.leaf].value += values;
  return Status::OK();
}

Status ColumnAssembler::AssembleStruct(const ReadNode& node, ColumnVector* out) {
  const ColumnChunkData& d = *cursors_[node.first_leaf].data;
  const int64_t begin = cursors_[node.first_leaf].level, end = range_end_[node.first_leaf];
  Levels lv = LevelsOf(d, *plan_->leaves[node.first_leaf]);
  int64_t slots = 0, nulls = 0;
  for (int64_t j = begin; j < end; ++j) {
    int16_t def = lv.Def(j);
    if (lv.Rep(j) <= node.slot_rep && def >= node.slot_def) {
      ++slots;
      nulls += def < node.null_def;
    }
  }
  const int64_t old = out->size();
  out->Resize(old + slots);
  if (nulls > 0) {
    uint8_t* validity = out->MutableValidity() + old;
    for (int64_t j = begin; j < end; ++j) {
      int16_t def = lv.Def(j);
      if (lv.Rep(j) <= node.slot_rep && def >= node.slot_def) *validity++ = def >= node.null_def;
    }
  }
  for (size_t i = 0; i < node.children.size(); ++i) {
    const ReadNode& child = *node.children[i];
    ColumnVector* cv = out->child(static_cast<int>(i));
    if (child.kind == Kind::kMissing) {
      AppendNulls(slots, cv);
    } else {
      SLUICE_RETURN_NOT_OK(Assemble(child, cv));
    }
    if (cv->size() != out->size())
      return SizeMismatch(child.kind == Kind::kMissing ? node : child, out->size(), cv->size());
  }
  return Status::OK();
}

Status ColumnAssembler::AssembleNested(const ReadNode& node, ColumnVector* out) {
  const ColumnChunkData& d = *cursors_[node.first_leaf].data;
  const int64_t begin = cursors_[node.first_leaf].level, end = range_end_[node.first_leaf];
  Levels lv = LevelsOf(d, *plan_->leaves[node.first_leaf]);
  int64_t slots = 0, nulls = 0;
  for (int64_t j = begin; j < end; ++j) {
    int16_t def = lv.Def(j);
    if (lv.Rep(j) <= node.slot_rep && def >= node.slot_def) {
      ++slots;
      nulls += def < node.null_def;
    }
  }
  const int64_t old = out->size();
  out->Resize(old + slots);
  int32_t* off = out->offset_data() + old;
  uint8_t* validity = nulls > 0 ? out->MutableValidity() + old : nullptr;
  int64_t count = off[0];
  int64_t slot = -1;
  for (int64_t j = begin; j < end; ++j) {
    int16_t def = lv.Def(j);
    int16_t rep = lv.Rep(j);
    if (rep <= node.slot_rep) {
      if (def < node.slot_def) continue;
      if (slot >= 0) off[slot + 1] = static_cast<int32_t>(count);
      ++slot;
      if (validity) validity[slot] = def >= node.null_def;
      if (def >= node.elem_def) ++count;
    } else if (rep == node.elem_rep && def >= node.elem_def) {
      ++count;
    }
    if (count > INT32_MAX) {
      return Status::NotSupported("column '" + node.file_node->path +
                                  "': more than 2^31 elements in one batch");
    }
  }
  if (slot >= 0) off[slot + 1] = static_cast<int32_t>(count);
  for (size_t i = 0; i < node.children.size(); ++i) {
    const ReadNode& child = *node.children[i];
    ColumnVector* cv = out->child(static_cast<int>(i));
    int64_t want = count;
    if (child.kind == Kind::kMissing) {
      if (want > cv->size()) AppendNulls(want - cv->size(), cv);
    } else {
      SLUICE_RETURN_NOT_OK(Assemble(child, cv));
    }
    if (cv->size() != want) {
      return SizeMismatch(child.kind == Kind::kMissing ? node : child, want, cv->size());
    }
  }
  return Status::OK();
}

}  // namespace sluice::parquet
