#include "sluice/column_vector.h"

#include <utility>

#include <cstring>
#include <limits>
#include <string>

namespace sluice {

PhysicalKind PhysicalKindOf(const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return PhysicalKind::kUInt8;
    case TypeRoot::kTinyInt:
      return PhysicalKind::kInt8;
    case TypeRoot::kSmallInt:
      return PhysicalKind::kInt16;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      return PhysicalKind::kInt32;
    case TypeRoot::kBigInt:
      return PhysicalKind::kInt64;
    case TypeRoot::kDecimal:
      return type.IsCompactDecimal() ? PhysicalKind::kInt64 : PhysicalKind::kInt128;
    case TypeRoot::kFloat:
      return PhysicalKind::kFloat;
    case TypeRoot::kDouble:
      return PhysicalKind::kDouble;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return PhysicalKind::kTimestamp;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant:
      return PhysicalKind::kBytes;
    case TypeRoot::kArray:
    case TypeRoot::kVector:
      return PhysicalKind::kList;
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
      return PhysicalKind::kMap;
    case TypeRoot::kRow:
      return PhysicalKind::kStruct;
  }
  return PhysicalKind::kStruct;
}

int FixedWidthOf(PhysicalKind kind) {
  switch (kind) {
    case PhysicalKind::kUInt8:
    case PhysicalKind::kInt8:
      return 1;
    case PhysicalKind::kInt16:
      return 2;
    case PhysicalKind::kInt32:
    case PhysicalKind::kFloat:
      return 4;
    case PhysicalKind::kInt64:
    case PhysicalKind::kDouble:
      return 8;
    case PhysicalKind::kInt128:
      return 16;
    case PhysicalKind::kTimestamp:
      return static_cast<int>(sizeof(Timestamp));
    default:
      return 0;
  }
}

ColumnVector::ColumnVector(DataTypePtr type)
    : type_(std::move(type)), kind_(PhysicalKindOf(*type_)) {
  switch (kind_) {
    case PhysicalKind::kList:
      children_.push_back(std::make_unique<ColumnVector>(type_->element()));
      break;
    case PhysicalKind::kMap:
      if (type_->root() == TypeRoot::kMultiset) {
        children_.push_back(std::make_unique<ColumnVector>(type_->element()));
        children_.push_back(std::make_unique<ColumnVector>(DataType::Int(false)));
      } else {
        children_.push_back(std::make_unique<ColumnVector>(type_->key()));
        children_.push_back(std::make_unique<ColumnVector>(type_->value()));
      }
      break;
    case PhysicalKind::kStruct:
      for (const DataField& f : type_->fields()) {
        children_.push_back(std::make_unique<ColumnVector>(f.type));
      }
      break;
    default:
      break;
  }
  if (kind_ == PhysicalKind::kBytes || kind_ == PhysicalKind::kList ||
      kind_ == PhysicalKind::kMap) {
    offsets_.ResizeZeroed(sizeof(int32_t));
  }
}

uint8_t* ColumnVector::MutableValidity() {
  if (validity_.size() != static_cast<size_t>(size_)) {
    size_t old = validity_.size();
    validity_.Resize(static_cast<size_t>(size_));
    if (static_cast<size_t>(size_) > old) {
      std::memset(validity_.data() + old, 1, static_cast<size_t>(size_) - old);
    }
  }
  return validity_.data();
}

int64_t ColumnVector::CountNulls() const {
  if (validity_.empty()) return 0;
  int64_t valid = 0;
  const uint8_t* v = validity_.data();
  for (int64_t i = 0; i < size_; ++i) valid += v[i];
  return size_ - valid;
}

void ColumnVector::Resize(int64_t n) {
  int width = FixedWidthOf(kind_);
  if (width > 0) {
    values_.Resize(static_cast<size_t>(n) * static_cast<size_t>(width));
  } else if (kind_ != PhysicalKind::kStruct) {
    offsets_.Resize(static_cast<size_t>(n + 1) * sizeof(int32_t));
  }
  bool had_validity = !validity_.empty();
  size_ = n;
  if (had_validity) MutableValidity();
}

void ColumnVector::Clear() {
  size_ = 0;
  validity_.Clear();
  values_.Clear();
  if (!offsets_.empty()) offsets_.ResizeZeroed(sizeof(int32_t));
  for (auto& c : children_) c->Clear();
}

void ColumnVector::SwapBuffers(ColumnVector* other) {
  std::swap(size_, other->size_);
  std::swap(validity_, other->validity_);
  std::swap(values_, other->values_);
  std::swap(offsets_, other->offsets_);
}

void ColumnVector::MarkAppended(bool valid) {
  // The first null materializes the validity of the rows before it (none when size_ == 0, so
  // the emptiness of validity_ cannot tell whether it is materialized).
  if (!valid || !validity_.empty()) {
    MutableValidity();
    validity_.AppendValue<uint8_t>(valid ? 1 : 0);
  }
  ++size_;
}

void ColumnVector::AppendNull() {
  int width = FixedWidthOf(kind_);
  if (width > 0) {
    values_.ResizeZeroed(values_.size() + static_cast<size_t>(width));
  } else if (kind_ == PhysicalKind::kStruct) {
    for (auto& c : children_) c->AppendNull();
  } else {
    // Copied first: appending may reallocate the buffer the offset is read from.
    int32_t last = offset_data()[size_];
    offsets_.AppendValue<int32_t>(last);
  }
  MarkAppended(false);
}

void ColumnVector::AppendBytes(std::string_view s) {
  values_.Append(s);
  offsets_.AppendValue<int32_t>(static_cast<int32_t>(values_.size()));
  MarkAppended(true);
}

namespace {

Status KindMismatch(const DataType& type, const Value& v) {
  return Status::InvalidArgument("value " + v.DebugString() + " does not fit type " +
                                 type.ToString());
}

bool IsIntegral(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kBoolean:
    case Value::Kind::kInt8:
    case Value::Kind::kInt16:
    case Value::Kind::kInt32:
    case Value::Kind::kInt64:
      return true;
    default:
      return false;
  }
}

template <typename T>
bool FitsIn(int64_t v) {
  return v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
         v <= static_cast<int64_t>(std::numeric_limits<T>::max());
}

}  // namespace

Status ColumnVector::AppendValue(const Value& v) {
  if (v.is_null()) {
    AppendNull();
    return Status::OK();
  }
  switch (kind_) {
    case PhysicalKind::kUInt8:
      if (v.kind() != Value::Kind::kBoolean) return KindMismatch(*type_, v);
      AppendFixed<uint8_t>(v.boolean() ? 1 : 0);
      return Status::OK();
    case PhysicalKind::kInt8:
      if (!IsIntegral(v) || !FitsIn<int8_t>(v.AsInt64())) return KindMismatch(*type_, v);
      AppendFixed<int8_t>(static_cast<int8_t>(v.AsInt64()));
      return Status::OK();
    case PhysicalKind::kInt16:
      if (!IsIntegral(v) || !FitsIn<int16_t>(v.AsInt64())) return KindMismatch(*type_, v);
      AppendFixed<int16_t>(static_cast<int16_t>(v.AsInt64()));
      return Status::OK();
    case PhysicalKind::kInt32:
      if (!IsIntegral(v) || !FitsIn<int32_t>(v.AsInt64())) return KindMismatch(*type_, v);
      AppendFixed<int32_t>(static_cast<int32_t>(v.AsInt64()));
      return Status::OK();
    case PhysicalKind::kInt64:
      if (v.kind() == Value::Kind::kDecimal) {
        AppendFixed<int64_t>(static_cast<int64_t>(v.decimal().unscaled));
        return Status::OK();
      }
      if (!IsIntegral(v)) return KindMismatch(*type_, v);
      AppendFixed<int64_t>(v.AsInt64());
      return Status::OK();
    case PhysicalKind::kInt128:
      if (v.kind() != Value::Kind::kDecimal) return KindMismatch(*type_, v);
      AppendFixed<int128_t>(v.decimal().unscaled);
      return Status::OK();
    case PhysicalKind::kFloat:
      if (v.kind() != Value::Kind::kFloat) return KindMismatch(*type_, v);
      AppendFixed<float>(v.float32());
      return Status::OK();
    case PhysicalKind::kDouble:
      if (v.kind() != Value::Kind::kDouble) return KindMismatch(*type_, v);
      AppendFixed<double>(v.float64());
      return Status::OK();
    case PhysicalKind::kTimestamp:
      if (v.kind() != Value::Kind::kTimestamp) return KindMismatch(*type_, v);
      AppendFixed<Timestamp>(v.timestamp());
      return Status::OK();
    case PhysicalKind::kBytes:
      if (v.kind() != Value::Kind::kString && v.kind() != Value::Kind::kBinary) {
        return KindMismatch(*type_, v);
      }
      AppendBytes(v.bytes());
      return Status::OK();
    case PhysicalKind::kList: {
      if (v.kind() != Value::Kind::kArray) return KindMismatch(*type_, v);
      for (const Value& e : v.list()) SLUICE_RETURN_NOT_OK(children_[0]->AppendValue(e));
      offsets_.AppendValue<int32_t>(static_cast<int32_t>(children_[0]->size()));
      MarkAppended(true);
      return Status::OK();
    }
    case PhysicalKind::kMap: {
      if (v.kind() != Value::Kind::kMap) return KindMismatch(*type_, v);
      for (const auto& [k, val] : v.pairs()) {
        SLUICE_RETURN_NOT_OK(children_[0]->AppendValue(k));
        SLUICE_RETURN_NOT_OK(children_[1]->AppendValue(val));
      }
      offsets_.AppendValue<int32_t>(static_cast<int32_t>(children_[0]->size()));
      MarkAppended(true);
      return Status::OK();
    }
    case PhysicalKind::kStruct: {
      if (v.kind() != Value::Kind::kRow || v.list().size() != children_.size()) {
        return KindMismatch(*type_, v);
      }
      for (size_t i = 0; i < children_.size(); ++i) {
        SLUICE_RETURN_NOT_OK(children_[i]->AppendValue(v.list()[i]));
      }
      MarkAppended(true);
      return Status::OK();
    }
  }
  return KindMismatch(*type_, v);
}

Value ColumnVector::GetValue(int64_t i) const {
  if (IsNull(i)) return Value::Null();
  switch (kind_) {
    case PhysicalKind::kUInt8:
      return Value::Boolean(data<uint8_t>()[i] != 0);
    case PhysicalKind::kInt8:
      return Value::Int8(data<int8_t>()[i]);
    case PhysicalKind::kInt16:
      return Value::Int16(data<int16_t>()[i]);
    case PhysicalKind::kInt32:
      return Value::Int32(data<int32_t>()[i]);
    case PhysicalKind::kInt64:
      if (type_->root() == TypeRoot::kDecimal) {
        return Value::FromDecimal(Decimal{data<int64_t>()[i], type_->precision(), type_->scale()});
      }
      return Value::Int64(data<int64_t>()[i]);
    case PhysicalKind::kInt128: {
      int128_t v;
      std::memcpy(&v, values_.data() + i * 16, 16);
      return Value::FromDecimal(Decimal{v, type_->precision(), type_->scale()});
    }
    case PhysicalKind::kFloat:
      return Value::Float(data<float>()[i]);
    case PhysicalKind::kDouble:
      return Value::Double(data<double>()[i]);
    case PhysicalKind::kTimestamp:
      return Value::FromTimestamp(data<Timestamp>()[i]);
    case PhysicalKind::kBytes:
      return type_->IsString() ? Value::String(std::string(GetBytes(i)))
                               : Value::Binary(std::string(GetBytes(i)));
    case PhysicalKind::kList: {
      ValueList items;
      for (int32_t j = ListBegin(i); j < ListEnd(i); ++j)
        items.push_back(children_[0]->GetValue(j));
      return Value::Array(std::move(items));
    }
    case PhysicalKind::kMap: {
      ValuePairs items;
      for (int32_t j = ListBegin(i); j < ListEnd(i); ++j) {
        items.emplace_back(children_[0]->GetValue(j), children_[1]->GetValue(j));
      }
      return Value::Map(std::move(items));
    }
    case PhysicalKind::kStruct: {
      ValueList fields;
      for (const auto& c : children_) fields.push_back(c->GetValue(i));
      return Value::Row(std::move(fields));
    }
  }
  return Value::Null();
}

}  // namespace sluice
