#include "sluice/format/parquet/thrift_compact_reader.h"

#include <utility>

#include "sluice/base/coding.h"

namespace sluice::parquet {

namespace {

Status Truncated() { return Status::Corruption("thrift: input ends inside a value"); }

Status WrongType(ThriftWireType type) {
  return Status::Corruption("thrift: unexpected wire type " +
                            std::to_string(static_cast<int>(type)));
}

}  // namespace

Status ThriftCompactReader::Enter() {
  if (++depth_ > kMaxDepth) {
    --depth_;
    return Status::Corruption("thrift: structs nested too deeply");
  }
  return Status::OK();
}

Status ThriftCompactReader::ReadVarint(uint64_t* out) {
  if (!GetVarint64(&pos_, end_, out)) return Status::Corruption("thrift: bad or truncated varint");
  return Status::OK();
}

Status ThriftCompactReader::ReadZigZag(int64_t* out) {
  uint64_t v;
  SLUICE_RETURN_NOT_OK(ReadVarint(&v));
  *out = ZigZagDecode64(v);
  return Status::OK();
}

Status ThriftCompactReader::ReadFieldHeader(int16_t* last_id, int16_t* id, ThriftWireType* type) {
  if (pos_ >= end_) return Truncated();
  uint8_t byte = *pos_++;
  uint8_t t = byte & 0x0f;
  if (t == 0) {
    *type = ThriftWireType::kStop;
    return Status::OK();
  }
  if (t > static_cast<uint8_t>(ThriftWireType::kStruct)) {
    return Status::Corruption("thrift: invalid field type " + std::to_string(t));
  }
  *type = static_cast<ThriftWireType>(t);
  int delta = byte >> 4;
  if (delta != 0) {
    *id = static_cast<int16_t>(*last_id + delta);
  } else {
    int64_t v;
    SLUICE_RETURN_NOT_OK(ReadZigZag(&v));
    if (v < INT16_MIN || v > INT16_MAX) return Status::Corruption("thrift: field id out of range");
    *id = static_cast<int16_t>(v);
  }
  *last_id = *id;
  return Status::OK();
}

Status ThriftCompactReader::ReadBool(ThriftWireType type, bool* out) {
  // Booleans of fields carry the value in the type; list elements are one byte each (passed
  // with type kBoolTrue by the list reader convention below).
  if (type == ThriftWireType::kBoolTrue || type == ThriftWireType::kBoolFalse) {
    *out = type == ThriftWireType::kBoolTrue;
    return Status::OK();
  }
  return WrongType(type);
}

Status ThriftCompactReader::ReadI8(ThriftWireType type, int8_t* out) {
  if (type != ThriftWireType::kByte) return WrongType(type);
  if (pos_ >= end_) return Truncated();
  *out = static_cast<int8_t>(*pos_++);
  return Status::OK();
}

Status ThriftCompactReader::ReadI16(ThriftWireType type, int16_t* out) {
  if (type != ThriftWireType::kI16) return WrongType(type);
  int64_t v;
  SLUICE_RETURN_NOT_OK(ReadZigZag(&v));
  if (v < INT16_MIN || v > INT16_MAX) return Status::Corruption("thrift: i16 out of range");
  *out = static_cast<int16_t>(v);
  return Status::OK();
}

Status ThriftCompactReader::ReadI32(ThriftWireType type, int32_t* out) {
  if (type != ThriftWireType::kI32) return WrongType(type);
  int64_t v;
  SLUICE_RETURN_NOT_OK(ReadZigZag(&v));
  if (v < INT32_MIN || v > INT32_MAX) return Status::Corruption("thrift: i32 out of range");
  *out = static_cast<int32_t>(v);
  return Status::OK();
}

Status ThriftCompactReader::ReadI64(ThriftWireType type, int64_t* out) {
  if (type != ThriftWireType::kI64) return WrongType(type);
  return ReadZigZag(out);
}

Status ThriftCompactReader::ReadBinary(ThriftWireType type, std::string* out) {
  if (type != ThriftWireType::kBinary) return WrongType(type);
  uint64_t len;
  SLUICE_RETURN_NOT_OK(ReadVarint(&len));
  if (len > static_cast<uint64_t>(end_ - pos_)) {
    return Status::Corruption("thrift: binary length " + std::to_string(len) +
                              " runs past the end");
  }
  out->assign(reinterpret_cast<const char*>(pos_), len);
  pos_ += len;
  return Status::OK();
}

Status ThriftCompactReader::ReadListHeader(ThriftWireType type, ThriftWireType* elem_type,
                                           int32_t* size) {
  if (type != ThriftWireType::kList && type != ThriftWireType::kSet) return WrongType(type);
  if (pos_ >= end_) return Truncated();
  uint8_t byte = *pos_++;
  uint64_t n = byte >> 4;
  if (n == 15) SLUICE_RETURN_NOT_OK(ReadVarint(&n));
  uint8_t t = byte & 0x0f;
  if (t == 0 || t > static_cast<uint8_t>(ThriftWireType::kStruct)) {
    return Status::Corruption("thrift: invalid list element type " + std::to_string(t));
  }
  // Every element takes at least one byte (a bool element is one byte, an empty struct its
  // stop byte), which bounds a lying size.
  if (n > static_cast<uint64_t>(end_ - pos_)) {
    return Status::Corruption("thrift: list size " + std::to_string(n) + " runs past the end");
  }
  *elem_type = static_cast<ThriftWireType>(t);
  *size = static_cast<int32_t>(n);
  return Status::OK();
}

Status ThriftCompactReader::Skip(ThriftWireType type) { return SkipDepth(type, depth_); }

Status ThriftCompactReader::SkipDepth(ThriftWireType type, int depth) {
  if (depth > kMaxDepth) return Status::Corruption("thrift: values nested too deeply");
  switch (type) {
    case ThriftWireType::kBoolTrue:
    case ThriftWireType::kBoolFalse:
      return Status::OK();
    case ThriftWireType::kByte:
      if (pos_ >= end_) return Truncated();
      ++pos_;
      return Status::OK();
    case ThriftWireType::kI16:
    case ThriftWireType::kI32:
    case ThriftWireType::kI64: {
      uint64_t v;
      return ReadVarint(&v);
    }
    case ThriftWireType::kDouble:
      if (end_ - pos_ < 8) return Truncated();
      pos_ += 8;
      return Status::OK();
    case ThriftWireType::kBinary: {
      uint64_t len;
      SLUICE_RETURN_NOT_OK(ReadVarint(&len));
      if (len > static_cast<uint64_t>(end_ - pos_)) return Truncated();
      pos_ += len;
      return Status::OK();
    }
    case ThriftWireType::kList:
    case ThriftWireType::kSet: {
      ThriftWireType elem;
      int32_t n;
      SLUICE_RETURN_NOT_OK(ReadListHeader(type, &elem, &n));
      for (int32_t i = 0; i < n; ++i) {
        if (elem == ThriftWireType::kBoolTrue || elem == ThriftWireType::kBoolFalse) {
          if (pos_ >= end_) return Truncated();
          ++pos_;
        } else {
          SLUICE_RETURN_NOT_OK(SkipDepth(elem, depth + 1));
        }
      }
      return Status::OK();
    }
    case ThriftWireType::kMap: {
      uint64_t n;
      SLUICE_RETURN_NOT_OK(ReadVarint(&n));
      if (n == 0) return Status::OK();
      if (pos_ >= end_) return Truncated();
      if (n > static_cast<uint64_t>(end_ - pos_)) {
        return Status::Corruption("thrift: map size runs past the end");
      }
      uint8_t kv = *pos_++;
      auto kt = static_cast<ThriftWireType>(kv >> 4);
      auto vt = static_cast<ThriftWireType>(kv & 0x0f);
      if ((kv >> 4) == 0 || (kv >> 4) > 12 || (kv & 0x0f) == 0 || (kv & 0x0f) > 12) {
        return Status::Corruption("thrift: invalid map types");
      }
      for (uint64_t i = 0; i < n; ++i) {
        for (ThriftWireType t : {kt, vt}) {
          if (t == ThriftWireType::kBoolTrue || t == ThriftWireType::kBoolFalse) {
            if (pos_ >= end_) return Truncated();
            ++pos_;
          } else {
            SLUICE_RETURN_NOT_OK(SkipDepth(t, depth + 1));
          }
        }
      }
      return Status::OK();
    }
    case ThriftWireType::kStruct: {
      int16_t last = 0;
      while (true) {
        int16_t id;
        ThriftWireType t;
        SLUICE_RETURN_NOT_OK(ReadFieldHeader(&last, &id, &t));
        if (t == ThriftWireType::kStop) return Status::OK();
        SLUICE_RETURN_NOT_OK(SkipDepth(t, depth + 1));
      }
    }
    case ThriftWireType::kStop:
      break;
  }
  return WrongType(type);
}

namespace {

using R = ThriftCompactReader;

// Reads one struct: calls on_field(id, type) for every field, which must consume the value
// (or return Skip). Adds `name` to errors.
template <typename F>
Status ReadStruct(R* r, const char* name, F&& on_field) {
  Status st = r->Enter();
  if (!st.ok()) return st.WithContext(name);
  int16_t last = 0;
  while (true) {
    int16_t id = 0;
    ThriftWireType t;
    st = r->ReadFieldHeader(&last, &id, &t);
    if (!st.ok()) break;
    if (t == ThriftWireType::kStop) break;
    st = on_field(id, t);
    if (!st.ok()) {
      st = st.WithContext(std::string(name) + " field " + std::to_string(id));
      break;
    }
  }
  r->Leave();
  if (!st.ok() && st.message().find(name) != 0) return st.WithContext(name);
  return st;
}

template <typename T, typename F>
Status ReadList(R* r, ThriftWireType type, std::vector<T>* out, F&& read_elem) {
  ThriftWireType elem;
  int32_t n;
  SLUICE_RETURN_NOT_OK(r->ReadListHeader(type, &elem, &n));
  out->clear();
  out->reserve(static_cast<size_t>(n));
  for (int32_t i = 0; i < n; ++i) {
    out->emplace_back();
    SLUICE_RETURN_NOT_OK(read_elem(elem, &out->back()));
  }
  return Status::OK();
}

template <typename E>
Status ReadEnum(R* r, ThriftWireType t, E* out) {
  int32_t v;
  SLUICE_RETURN_NOT_OK(r->ReadI32(t, &v));
  *out = static_cast<E>(v);
  return Status::OK();
}

template <typename E>
Status ReadEnum(R* r, ThriftWireType t, std::optional<E>* out) {
  E v;
  SLUICE_RETURN_NOT_OK(ReadEnum(r, t, &v));
  *out = v;
  return Status::OK();
}

template <typename T, typename F>
Status ReadOpt(std::optional<T>* out, F&& read) {
  T v{};
  SLUICE_RETURN_NOT_OK(read(&v));
  *out = std::move(v);
  return Status::OK();
}

// Optional fields of a wire type other than the IDL's are skipped: some writers used field ids
// that later versions of parquet.thrift assigned differently.
Status ReadI32Opt(R* r, ThriftWireType t, std::optional<int32_t>* out) {
  if (t != ThriftWireType::kI32) return r->Skip(t);
  return ReadOpt(out, [&](int32_t* v) { return r->ReadI32(t, v); });
}
Status ReadI64Opt(R* r, ThriftWireType t, std::optional<int64_t>* out) {
  if (t != ThriftWireType::kI64) return r->Skip(t);
  return ReadOpt(out, [&](int64_t* v) { return r->ReadI64(t, v); });
}
Status ReadBinOpt(R* r, ThriftWireType t, std::optional<std::string>* out) {
  if (t != ThriftWireType::kBinary) return r->Skip(t);
  return ReadOpt(out, [&](std::string* v) { return r->ReadBinary(t, v); });
}
Status ReadBoolOpt(R* r, ThriftWireType t, std::optional<bool>* out) {
  if (t != ThriftWireType::kBoolTrue && t != ThriftWireType::kBoolFalse) return r->Skip(t);
  return ReadOpt(out, [&](bool* v) { return r->ReadBool(t, v); });
}

Status CheckRequired(bool seen, const char* what) {
  if (!seen) return Status::Corruption(std::string("missing required field ") + what);
  return Status::OK();
}

Status ReadTimeUnit(R* r, TimeUnit* out) {
  return ReadStruct(r, "TimeUnit", [&](int16_t id, ThriftWireType t) -> Status {
    if (t == ThriftWireType::kStruct && id >= 1 && id <= 3) {
      *out = static_cast<TimeUnit>(id);
    }
    return r->Skip(t);
  });
}

Status ReadLogicalType(R* r, LogicalType* out) {
  return ReadStruct(r, "LogicalType", [&](int16_t id, ThriftWireType t) -> Status {
    if (t != ThriftWireType::kStruct) return r->Skip(t);
    out->kind = static_cast<LogicalType::Kind>(id);
    switch (id) {
      case 5:
        return ReadStruct(r, "DecimalType", [&](int16_t fid, ThriftWireType ft) -> Status {
          if (fid == 1) return r->ReadI32(ft, &out->scale);
          if (fid == 2) return r->ReadI32(ft, &out->precision);
          return r->Skip(ft);
        });
      case 7:
      case 8:
        return ReadStruct(r, "TimeType", [&](int16_t fid, ThriftWireType ft) -> Status {
          if (fid == 1) return r->ReadBool(ft, &out->is_adjusted_to_utc);
          if (fid == 2 && ft == ThriftWireType::kStruct) return ReadTimeUnit(r, &out->unit);
          return r->Skip(ft);
        });
      case 10:
        return ReadStruct(r, "IntType", [&](int16_t fid, ThriftWireType ft) -> Status {
          if (fid == 1) return r->ReadI8(ft, &out->bit_width);
          if (fid == 2) return r->ReadBool(ft, &out->is_signed);
          return r->Skip(ft);
        });
      default:
        if (id < 1 || id > 18 || id == 9) out->kind = LogicalType::Kind::kNone;
        return r->Skip(t);
    }
  });
}

Status ReadSchemaElement(R* r, SchemaElement* out) {
  bool has_name = false;
  SLUICE_RETURN_NOT_OK(ReadStruct(r, "SchemaElement", [&](int16_t id, ThriftWireType t) -> Status {
    switch (id) {
      case 1:
        return ReadEnum(r, t, &out->type);
      case 2:
        return ReadI32Opt(r, t, &out->type_length);
      case 3:
        return ReadEnum(r, t, &out->repetition_type);
      case 4:
        has_name = true;
        return r->ReadBinary(t, &out->name);
      case 5:
        return ReadI32Opt(r, t, &out->num_children);
      case 6:
        return ReadEnum(r, t, &out->converted_type);
      case 7:
        return ReadI32Opt(r, t, &out->scale);
      case 8:
        return ReadI32Opt(r, t, &out->precision);
      case 9:
        return ReadI32Opt(r, t, &out->field_id);
      case 10:
        if (t != ThriftWireType::kStruct) return r->Skip(t);
        return ReadOpt(&out->logical_type, [&](LogicalType* v) { return ReadLogicalType(r, v); });
      default:
        return r->Skip(t);
    }
  }));
  return CheckRequired(has_name, "SchemaElement.name");
}

Status ReadKeyValue(R* r, KeyValue* out) {
  return ReadStruct(r, "KeyValue", [&](int16_t id, ThriftWireType t) -> Status {
    if (id == 1) return r->ReadBinary(t, &out->key);
    if (id == 2) return ReadBinOpt(r, t, &out->value);
    return r->Skip(t);
  });
}

Status ReadStatistics(R* r, Statistics* out) {
  return ReadStruct(r, "Statistics", [&](int16_t id, ThriftWireType t) -> Status {
    switch (id) {
      case 1:
        return ReadBinOpt(r, t, &out->max);
      case 2:
        return ReadBinOpt(r, t, &out->min);
      case 3:
        return ReadI64Opt(r, t, &out->null_count);
      case 4:
        return ReadI64Opt(r, t, &out->distinct_count);
      case 5:
        return ReadBinOpt(r, t, &out->max_value);
      case 6:
        return ReadBinOpt(r, t, &out->min_value);
      case 7:
        return ReadBoolOpt(r, t, &out->is_max_value_exact);
      case 8:
        return ReadBoolOpt(r, t, &out->is_min_value_exact);
      default:
        return r->Skip(t);
    }
  });
}

Status ReadStatisticsOpt(R* r, ThriftWireType t, std::optional<Statistics>* out) {
  if (t != ThriftWireType::kStruct) return r->Skip(t);
  return ReadOpt(out, [&](Statistics* v) { return ReadStatistics(r, v); });
}

Status ReadEncodingList(R* r, ThriftWireType t, std::vector<Encoding>* out) {
  return ReadList(r, t, out, [&](ThriftWireType et, Encoding* e) { return ReadEnum(r, et, e); });
}

Status ReadColumnMetaData(R* r, ColumnMetaData* out) {
  uint32_t seen = 0;
  SLUICE_RETURN_NOT_OK(ReadStruct(r, "ColumnMetaData", [&](int16_t id, ThriftWireType t) -> Status {
    if (id >= 1 && id <= 9) seen |= 1u << id;
    switch (id) {
      case 1:
        return ReadEnum(r, t, &out->type);
      case 2:
        return ReadEncodingList(r, t, &out->encodings);
      case 3:
        return ReadList(r, t, &out->path_in_schema,
                        [&](ThriftWireType et, std::string* s) { return r->ReadBinary(et, s); });
      case 4:
        return ReadEnum(r, t, &out->codec);
      case 5:
        return r->ReadI64(t, &out->num_values);
      case 6:
        return r->ReadI64(t, &out->total_uncompressed_size);
      case 7:
        return r->ReadI64(t, &out->total_compressed_size);
      case 8:
        return ReadList(r, t, &out->key_value_metadata,
                        [&](ThriftWireType, KeyValue* kv) { return ReadKeyValue(r, kv); });
      case 9:
        return r->ReadI64(t, &out->data_page_offset);
      case 10:
        return ReadI64Opt(r, t, &out->index_page_offset);
      case 11:
        return ReadI64Opt(r, t, &out->dictionary_page_offset);
      case 12:
        return ReadStatisticsOpt(r, t, &out->statistics);
      case 13:
        return ReadList(r, t, &out->encoding_stats, [&](ThriftWireType, PageEncodingStats* s) {
          return ReadStruct(r, "PageEncodingStats", [&](int16_t fid, ThriftWireType ft) -> Status {
            if (fid == 1) return ReadEnum(r, ft, &s->page_type);
            if (fid == 2) return ReadEnum(r, ft, &s->encoding);
            if (fid == 3) return r->ReadI32(ft, &s->count);
            return r->Skip(ft);
          });
        });
      case 14:
        return ReadI64Opt(r, t, &out->bloom_filter_offset);
      case 15:
        return ReadI32Opt(r, t, &out->bloom_filter_length);
      default:
        return r->Skip(t);
    }
  }));
  for (int id : {1, 3, 4, 5, 7, 9}) {
    if ((seen & (1u << id)) == 0) {
      return Status::Corruption("ColumnMetaData: missing required field " + std::to_string(id));
    }
  }
  return Status::OK();
}

Status ReadColumnChunk(R* r, ColumnChunk* out) {
  return ReadStruct(r, "ColumnChunk", [&](int16_t id, ThriftWireType t) -> Status {
    switch (id) {
      case 1:
        return ReadBinOpt(r, t, &out->file_path);
      case 2:
        return r->ReadI64(t, &out->file_offset);
      case 3:
        if (t != ThriftWireType::kStruct) return r->Skip(t);
        return ReadOpt(&out->meta_data,
                       [&](ColumnMetaData* m) { return ReadColumnMetaData(r, m); });
      case 4:
        return ReadI64Opt(r, t, &out->offset_index_offset);
      case 5:
        return ReadI32Opt(r, t, &out->offset_index_length);
      case 6:
        return ReadI64Opt(r, t, &out->column_index_offset);
      case 7:
        return ReadI32Opt(r, t, &out->column_index_length);
      default:
        return r->Skip(t);
    }
  });
}

Status ReadRowGroup(R* r, RowGroup* out) {
  bool has_rows = false;
  SLUICE_RETURN_NOT_OK(ReadStruct(r, "RowGroup", [&](int16_t id, ThriftWireType t) -> Status {
    switch (id) {
      case 1:
        return ReadList(r, t, &out->columns,
                        [&](ThriftWireType, ColumnChunk* c) { return ReadColumnChunk(r, c); });
      case 2:
        return r->ReadI64(t, &out->total_byte_size);
      case 3:
        has_rows = true;
        return r->ReadI64(t, &out->num_rows);
      case 4:
        return ReadList(r, t, &out->sorting_columns, [&](ThriftWireType, SortingColumn* s) {
          return ReadStruct(r, "SortingColumn", [&](int16_t fid, ThriftWireType ft) -> Status {
            if (fid == 1) return r->ReadI32(ft, &s->column_idx);
            if (fid == 2) return r->ReadBool(ft, &s->descending);
            if (fid == 3) return r->ReadBool(ft, &s->nulls_first);
            return r->Skip(ft);
          });
        });
      case 5:
        return ReadI64Opt(r, t, &out->file_offset);
      case 6:
        return ReadI64Opt(r, t, &out->total_compressed_size);
      case 7:
        return ReadOpt(&out->ordinal, [&](int16_t* v) { return r->ReadI16(t, v); });
      default:
        return r->Skip(t);
    }
  }));
  return CheckRequired(has_rows, "RowGroup.num_rows");
}

template <typename F>
Status DecodeTopLevel(std::string_view data, size_t* consumed, F&& read) {
  R r(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  SLUICE_RETURN_NOT_OK(read(&r));
  if (consumed != nullptr) *consumed = r.position();
  return Status::OK();
}

}  // namespace

Status DecodeFileMetaData(std::string_view data, FileMetaData* out) {
  return DecodeTopLevel(data, nullptr, [&](R* r) -> Status {
    bool has_schema = false, has_rows = false;
    SLUICE_RETURN_NOT_OK(ReadStruct(r, "FileMetaData", [&](int16_t id, ThriftWireType t) -> Status {
      switch (id) {
        case 1:
          return r->ReadI32(t, &out->version);
        case 2:
          has_schema = true;
          return ReadList(r, t, &out->schema, [&](ThriftWireType, SchemaElement* e) {
            return ReadSchemaElement(r, e);
          });
        case 3:
          has_rows = true;
          return r->ReadI64(t, &out->num_rows);
        case 4:
          return ReadList(r, t, &out->row_groups,
                          [&](ThriftWireType, RowGroup* g) { return ReadRowGroup(r, g); });
        case 5:
          return ReadList(r, t, &out->key_value_metadata,
                          [&](ThriftWireType, KeyValue* kv) { return ReadKeyValue(r, kv); });
        case 6:
          return ReadBinOpt(r, t, &out->created_by);
        case 7:
          return ReadList(r, t, &out->column_orders, [&](ThriftWireType, ColumnOrder* o) {
            o->type_defined_order = false;
            return ReadStruct(r, "ColumnOrder", [&](int16_t fid, ThriftWireType ft) -> Status {
              if (fid == 1) o->type_defined_order = true;
              return r->Skip(ft);
            });
          });
        case 8:
          return Status::NotSupported("encrypted Parquet files are not supported");
        default:
          return r->Skip(t);
      }
    }));
    SLUICE_RETURN_NOT_OK(CheckRequired(has_schema, "FileMetaData.schema"));
    return CheckRequired(has_rows, "FileMetaData.num_rows");
  });
}

Status DecodePageHeader(std::string_view data, PageHeader* out, size_t* consumed) {
  return DecodeTopLevel(data, consumed, [&](R* r) -> Status {
    uint32_t seen = 0;
    SLUICE_RETURN_NOT_OK(ReadStruct(r, "PageHeader", [&](int16_t id, ThriftWireType t) -> Status {
      if (id >= 1 && id <= 3) seen |= 1u << id;
      switch (id) {
        case 1:
          return ReadEnum(r, t, &out->type);
        case 2:
          return r->ReadI32(t, &out->uncompressed_page_size);
        case 3:
          return r->ReadI32(t, &out->compressed_page_size);
        case 4:
          return ReadI32Opt(r, t, &out->crc);
        case 5:
          if (t != ThriftWireType::kStruct) return r->Skip(t);
          return ReadOpt(&out->data_page_header, [&](DataPageHeader* h) {
            return ReadStruct(r, "DataPageHeader", [&](int16_t fid, ThriftWireType ft) -> Status {
              switch (fid) {
                case 1:
                  return r->ReadI32(ft, &h->num_values);
                case 2:
                  return ReadEnum(r, ft, &h->encoding);
                case 3:
                  return ReadEnum(r, ft, &h->definition_level_encoding);
                case 4:
                  return ReadEnum(r, ft, &h->repetition_level_encoding);
                case 5:
                  return ReadStatisticsOpt(r, ft, &h->statistics);
                default:
                  return r->Skip(ft);
              }
            });
          });
        case 7:
          if (t != ThriftWireType::kStruct) return r->Skip(t);
          return ReadOpt(&out->dictionary_page_header, [&](DictionaryPageHeader* h) {
            return ReadStruct(r, "DictionaryPageHeader",
                              [&](int16_t fid, ThriftWireType ft) -> Status {
                                if (fid == 1) return r->ReadI32(ft, &h->num_values);
                                if (fid == 2) return ReadEnum(r, ft, &h->encoding);
                                if (fid == 3) return ReadBoolOpt(r, ft, &h->is_sorted);
                                return r->Skip(ft);
                              });
          });
        case 8:
          if (t != ThriftWireType::kStruct) return r->Skip(t);
          return ReadOpt(&out->data_page_header_v2, [&](DataPageHeaderV2* h) {
            return ReadStruct(r, "DataPageHeaderV2", [&](int16_t fid, ThriftWireType ft) -> Status {
              switch (fid) {
                case 1:
                  return r->ReadI32(ft, &h->num_values);
                case 2:
                  return r->ReadI32(ft, &h->num_nulls);
                case 3:
                  return r->ReadI32(ft, &h->num_rows);
                case 4:
                  return ReadEnum(r, ft, &h->encoding);
                case 5:
                  return r->ReadI32(ft, &h->definition_levels_byte_length);
                case 6:
                  return r->ReadI32(ft, &h->repetition_levels_byte_length);
                case 7:
                  return ReadBoolOpt(r, ft, &h->is_compressed);
                case 8:
                  return ReadStatisticsOpt(r, ft, &h->statistics);
                default:
                  return r->Skip(ft);
              }
            });
          });
        default:
          return r->Skip(t);
      }
    }));
    if (seen != 0b1110) return Status::Corruption("PageHeader: missing type or page sizes");
    return Status::OK();
  });
}

Status DecodeOffsetIndex(std::string_view data, OffsetIndex* out) {
  return DecodeTopLevel(data, nullptr, [&](R* r) -> Status {
    return ReadStruct(r, "OffsetIndex", [&](int16_t id, ThriftWireType t) -> Status {
      if (id == 1) {
        return ReadList(r, t, &out->page_locations, [&](ThriftWireType, PageLocation* p) {
          return ReadStruct(r, "PageLocation", [&](int16_t fid, ThriftWireType ft) -> Status {
            if (fid == 1) return r->ReadI64(ft, &p->offset);
            if (fid == 2) return r->ReadI32(ft, &p->compressed_page_size);
            if (fid == 3) return r->ReadI64(ft, &p->first_row_index);
            return r->Skip(ft);
          });
        });
      }
      if (id == 2) {
        return ReadList(r, t, &out->unencoded_byte_array_data_bytes,
                        [&](ThriftWireType et, int64_t* v) { return r->ReadI64(et, v); });
      }
      return r->Skip(t);
    });
  });
}

Status DecodeColumnIndex(std::string_view data, ColumnIndex* out) {
  return DecodeTopLevel(data, nullptr, [&](R* r) -> Status {
    return ReadStruct(r, "ColumnIndex", [&](int16_t id, ThriftWireType t) -> Status {
      switch (id) {
        case 1: {
          std::vector<uint8_t> flags;
          SLUICE_RETURN_NOT_OK(ReadList(r, t, &flags, [&](ThriftWireType et, uint8_t* v) -> Status {
            // Bool list elements are one byte: 1 = true, anything else false.
            int8_t b;
            SLUICE_RETURN_NOT_OK(r->ReadI8(ThriftWireType::kByte, &b));
            (void)et;
            *v = b == 1;
            return Status::OK();
          }));
          out->null_pages.assign(flags.begin(), flags.end());
          return Status::OK();
        }
        case 2:
          return ReadList(r, t, &out->min_values,
                          [&](ThriftWireType et, std::string* s) { return r->ReadBinary(et, s); });
        case 3:
          return ReadList(r, t, &out->max_values,
                          [&](ThriftWireType et, std::string* s) { return r->ReadBinary(et, s); });
        case 4:
          return ReadEnum(r, t, &out->boundary_order);
        case 5:
          return ReadList(r, t, &out->null_counts,
                          [&](ThriftWireType et, int64_t* v) { return r->ReadI64(et, v); });
        default:
          return r->Skip(t);
      }
    });
  });
}

}  // namespace sluice::parquet
