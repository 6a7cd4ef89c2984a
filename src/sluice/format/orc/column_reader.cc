#include "sluice/format/orc/column_reader.h"

#include <algorithm>
#include <cstring>

#include "sluice/batch/column_take.h"
#include "sluice/format/orc/reader/column_reader_util.h"
#include "sluice/format/orc/reader/column_readers.h"

namespace sluice::orc {

namespace {

const std::vector<uint64_t> kNoPositions;

bool IsIntegerRoot(TypeRoot r) {
  return r == TypeRoot::kTinyInt || r == TypeRoot::kSmallInt || r == TypeRoot::kInt ||
         r == TypeRoot::kBigInt;
}

}  // namespace

// ---------------------------------------------------------------- ColumnReader base

std::string ColumnReader::Context() const {
  return "column '" + path_ + "' (ORC column " + std::to_string(column_) + ")";
}

Status ColumnReader::StartStripe(const StripeStreams& stripe) {
  has_present_ = stripe.HasStream(column_, StreamKind::kPresent);
  present_stream_ = &stripe.Stream(column_, StreamKind::kPresent);
  present_.Reset(present_stream_->data.data(), present_stream_->data.size());
  return Status::OK();
}

Status ColumnReader::ReadValidity(int64_t n, const uint8_t* parent_valid, int64_t* non_null) {
  ResizeScratch(&valid_, static_cast<size_t>(n));
  uint8_t* v = valid_.data();
  if (parent_valid == nullptr) {
    if (!has_present_) {
      std::memset(v, 1, static_cast<size_t>(n));
      *non_null = n;
      return Status::OK();
    }
    SLUICE_RETURN_NOT_OK(WithContext(present_.Next(v, n).WithContext("PRESENT stream")));
    *non_null = CountValid(v, n);
    return Status::OK();
  }
  int64_t m = CountValid(parent_valid, n);
  if (!has_present_) {
    std::memcpy(v, parent_valid, static_cast<size_t>(n));
    *non_null = m;
    return Status::OK();
  }
  SLUICE_RETURN_NOT_OK(WithContext(present_.Next(v, m).WithContext("PRESENT stream")));
  int64_t j = m;
  for (int64_t i = n - 1; i >= 0; --i) v[i] = parent_valid[i] ? v[--j] : 0;
  *non_null = CountValid(v, n);
  return Status::OK();
}

Status ColumnReader::SkipValidity(int64_t n, int64_t* non_null) {
  if (!has_present_) {
    *non_null = n;
    return Status::OK();
  }
  ResizeScratch(&skip_scratch_, static_cast<size_t>(std::min<int64_t>(n, 4096)));
  int64_t count = 0;
  for (int64_t done = 0; done < n;) {
    int64_t k = std::min<int64_t>(n - done, 4096);
    SLUICE_RETURN_NOT_OK(
        WithContext(present_.Next(skip_scratch_.data(), k).WithContext("PRESENT stream")));
    count += CountValid(skip_scratch_.data(), k);
    done += k;
  }
  *non_null = count;
  return Status::OK();
}

void ColumnReader::ApplyValidity(ColumnVector* out, int64_t base, int64_t n, int64_t non_null) {
  if (non_null == n) return;
  uint8_t* validity = out->MutableValidity();
  std::memcpy(validity + base, valid_.data(), static_cast<size_t>(n));
}

Status ColumnReader::SeekPresent(const std::vector<uint64_t>& positions, size_t* index) {
  if (!has_present_) return Status::OK();
  return WithContext(SeekBoolRle(&present_, *present_stream_, positions, index));
}

const std::vector<uint64_t>& ColumnReader::PositionsOf(const RowGroupPositions& positions) const {
  if (column_ < positions.size() && positions[column_] != nullptr) return *positions[column_];
  return kNoPositions;
}

namespace {

// ---------------------------------------------------------------- missing column

class NullColumnReader : public ColumnReader {
 public:
  explicit NullColumnReader(std::string path) : ColumnReader(0, std::move(path)) {}
  Status StartStripe(const StripeStreams&) override { return Status::OK(); }
  Status Read(int64_t n, const uint8_t*, ColumnVector* out) override {
    AppendNulls(n, out);
    return Status::OK();
  }
  Status Skip(int64_t) override { return Status::OK(); }
  Status Seek(const RowGroupPositions&) override { return Status::OK(); }
};

Status Incompatible(const OrcType& orc, const DataType& read, const std::string& path) {
  return Status::NotSupported("column '" + path + "': cannot read ORC type " +
                              std::string(OrcTypeKindName(orc.kind)) + " as " + read.ToString());
}

}  // namespace

std::unique_ptr<ColumnReader> MakeNullColumnReader(const std::string& path) {
  return std::make_unique<NullColumnReader>(path);
}

std::vector<int64_t> MatchStructFields(const std::vector<OrcType>& types, uint32_t column,
                                       const DataType& read_row) {
  const OrcType& st = types[column];
  std::vector<int64_t> ids(st.subtypes.size(), -1);
  bool file_has_ids = false;
  for (size_t i = 0; i < st.subtypes.size(); ++i) {
    const std::string* id = types[st.subtypes[i]].FindAttribute("paimon.id");
    if (id == nullptr) continue;
    char* end = nullptr;
    long long v = std::strtoll(id->c_str(), &end, 10);
    if (end != id->c_str() && *end == '\0') {
      ids[i] = v;
      file_has_ids = true;
    }
  }
  std::vector<int64_t> result(static_cast<size_t>(read_row.num_fields()), -1);
  for (int f = 0; f < read_row.num_fields(); ++f) {
    const DataField& field = read_row.fields()[static_cast<size_t>(f)];
    if (file_has_ids) {
      for (size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] == field.id) {
          result[static_cast<size_t>(f)] = st.subtypes[i];
          break;
        }
      }
      if (result[static_cast<size_t>(f)] >= 0) continue;
    }
    for (size_t i = 0; i < st.field_names.size() && i < st.subtypes.size(); ++i) {
      if (st.field_names[i] != field.name) continue;
      // A name match whose id belongs to another read field is that field's column.
      bool claimed = false;
      if (ids[i] >= 0 && ids[i] != field.id) {
        claimed = read_row.FieldIndexById(static_cast<int32_t>(ids[i])) >= 0;
      }
      if (!claimed) result[static_cast<size_t>(f)] = st.subtypes[i];
      break;
    }
  }
  return result;
}

Result<std::unique_ptr<ColumnReader>> MakeColumnReader(const std::vector<OrcType>& types,
                                                       uint32_t column,
                                                       const DataTypePtr& read_type,
                                                       const std::string& path) {
  const OrcType& orc = types[column];
  TypeRoot root = read_type->root();
  switch (orc.kind) {
    case OrcTypeKind::kBoolean:
      if (root != TypeRoot::kBoolean) return Incompatible(orc, *read_type, path);
      return NewBooleanColumnReader(column, path);
    case OrcTypeKind::kByte:
    case OrcTypeKind::kShort:
    case OrcTypeKind::kInt:
    case OrcTypeKind::kLong:
      if (!IsIntegerRoot(root) && root != TypeRoot::kTime) {
        return Incompatible(orc, *read_type, path);
      }
      return NewIntegerColumnReader(column, path, orc.kind == OrcTypeKind::kByte);
    case OrcTypeKind::kDate:
      if (root != TypeRoot::kDate && root != TypeRoot::kInt) {
        return Incompatible(orc, *read_type, path);
      }
      return NewIntegerColumnReader(column, path, false);
    case OrcTypeKind::kFloat:
    case OrcTypeKind::kDouble:
      if (root != TypeRoot::kDouble &&
          !(root == TypeRoot::kFloat && orc.kind == OrcTypeKind::kFloat)) {
        return Incompatible(orc, *read_type, path);
      }
      return NewFloatingColumnReader(column, path, orc.kind == OrcTypeKind::kFloat);
    case OrcTypeKind::kString:
    case OrcTypeKind::kVarchar:
    case OrcTypeKind::kChar:
    case OrcTypeKind::kBinary:
      if (PhysicalKindOf(*read_type) != PhysicalKind::kBytes) {
        return Incompatible(orc, *read_type, path);
      }
      return NewStringColumnReader(column, path, orc.kind == OrcTypeKind::kChar);
    case OrcTypeKind::kDecimal: {
      if (root != TypeRoot::kDecimal) return Incompatible(orc, *read_type, path);
      int file_scale = orc.precision == 0 ? 10 : static_cast<int>(orc.scale);
      return NewDecimalColumnReader(column, path, file_scale, read_type->scale(),
                                    orc.precision != 0 && orc.precision <= 18);
    }
    case OrcTypeKind::kTimestamp:
    case OrcTypeKind::kTimestampInstant:
      if (root != TypeRoot::kTimestamp && root != TypeRoot::kTimestampLtz) {
        return Incompatible(orc, *read_type, path);
      }
      return NewTimestampColumnReader(column, path, orc.kind == OrcTypeKind::kTimestampInstant,
                                      read_type->precision());
    case OrcTypeKind::kStruct: {
      if (root != TypeRoot::kRow) return Incompatible(orc, *read_type, path);
      std::vector<int64_t> match = MatchStructFields(types, column, *read_type);
      std::vector<std::unique_ptr<ColumnReader>> children;
      for (int f = 0; f < read_type->num_fields(); ++f) {
        const DataField& field = read_type->fields()[static_cast<size_t>(f)];
        std::string child_path = path + "." + field.name;
        if (match[static_cast<size_t>(f)] < 0) {
          children.push_back(MakeNullColumnReader(child_path));
          continue;
        }
        SLUICE_ASSIGN_OR_RETURN(
            auto child,
            MakeColumnReader(types, static_cast<uint32_t>(match[static_cast<size_t>(f)]),
                             field.type, child_path));
        children.push_back(std::move(child));
      }
      return NewStructColumnReader(column, path, std::move(children));
    }
    case OrcTypeKind::kList: {
      if (root != TypeRoot::kArray && root != TypeRoot::kVector) {
        return Incompatible(orc, *read_type, path);
      }
      std::vector<std::unique_ptr<ColumnReader>> children;
      SLUICE_ASSIGN_OR_RETURN(auto element, MakeColumnReader(types, orc.subtypes[0],
                                                             read_type->element(), path + "[]"));
      children.push_back(std::move(element));
      return NewRepeatedColumnReader(column, path, std::move(children));
    }
    case OrcTypeKind::kMap: {
      DataTypePtr key_type;
      DataTypePtr value_type;
      if (root == TypeRoot::kMap) {
        key_type = read_type->key();
        value_type = read_type->value();
      } else if (root == TypeRoot::kMultiset) {
        key_type = read_type->element();
        value_type = DataType::Int(false);
      } else {
        return Incompatible(orc, *read_type, path);
      }
      std::vector<std::unique_ptr<ColumnReader>> children;
      SLUICE_ASSIGN_OR_RETURN(auto key,
                              MakeColumnReader(types, orc.subtypes[0], key_type, path + ".key"));
      SLUICE_ASSIGN_OR_RETURN(
          auto value, MakeColumnReader(types, orc.subtypes[1], value_type, path + ".value"));
      children.push_back(std::move(key));
      children.push_back(std::move(value));
      return NewRepeatedColumnReader(column, path, std::move(children));
    }
    case OrcTypeKind::kUnion:
      return Status::NotSupported("column '" + path + "': ORC union types are not supported");
  }
  return Incompatible(orc, *read_type, path);
}

}  // namespace sluice::orc
