#include "sluice/format/parquet/thrift_compact_writer.h"

namespace sluice::parquet {

void ThriftCompactWriter::StructEnd() {
  out_->push_back(0);
  last_field_ids_.pop_back();
}

void ThriftCompactWriter::PutVarint(uint64_t v) {
  while (v >= 0x80) {
    out_->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out_->push_back(static_cast<char>(v));
}

void ThriftCompactWriter::FieldHeader(int16_t id, ThriftWireType type) {
  int16_t& last = last_field_ids_.back();
  int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    out_->push_back(static_cast<char>(type));
    PutVarint(ZigZag(id));
  }
  last = id;
}

void ThriftCompactWriter::FieldBool(int16_t id, bool v) {
  FieldHeader(id, v ? ThriftWireType::kBoolTrue : ThriftWireType::kBoolFalse);
}

void ThriftCompactWriter::FieldI8(int16_t id, int8_t v) {
  FieldHeader(id, ThriftWireType::kByte);
  out_->push_back(static_cast<char>(v));
}

void ThriftCompactWriter::FieldI16(int16_t id, int16_t v) {
  FieldHeader(id, ThriftWireType::kI16);
  PutVarint(ZigZag(v));
}

void ThriftCompactWriter::FieldI32(int16_t id, int32_t v) {
  FieldHeader(id, ThriftWireType::kI32);
  PutVarint(ZigZag(v));
}

void ThriftCompactWriter::FieldI64(int16_t id, int64_t v) {
  FieldHeader(id, ThriftWireType::kI64);
  PutVarint(ZigZag(v));
}

void ThriftCompactWriter::FieldBinary(int16_t id, std::string_view v) {
  FieldHeader(id, ThriftWireType::kBinary);
  ElementBinary(v);
}

void ThriftCompactWriter::ElementBinary(std::string_view v) {
  PutVarint(v.size());
  out_->append(v.data(), v.size());
}

void ThriftCompactWriter::FieldStructBegin(int16_t id) {
  FieldHeader(id, ThriftWireType::kStruct);
  StructBegin();
}

void ThriftCompactWriter::FieldListBegin(int16_t id, ThriftWireType element_type, int64_t size) {
  FieldHeader(id, ThriftWireType::kList);
  uint8_t type = static_cast<uint8_t>(element_type);
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | type));
  } else {
    out_->push_back(static_cast<char>(0xf0 | type));
    PutVarint(static_cast<uint64_t>(size));
  }
}

namespace {

// The members of union LogicalType: one field, whose id is the kind.
void WriteLogicalTypeFields(const LogicalType& lt, ThriftCompactWriter* w) {
  w->FieldStructBegin(static_cast<int16_t>(lt.kind));
  switch (lt.kind) {
    case LogicalType::Kind::kDecimal:
      w->FieldI32(1, lt.scale);
      w->FieldI32(2, lt.precision);
      break;
    case LogicalType::Kind::kTime:
    case LogicalType::Kind::kTimestamp:
      w->FieldBool(1, lt.is_adjusted_to_utc);
      w->FieldStructBegin(2);  // union TimeUnit: an empty struct under the unit's id
      w->FieldStructBegin(static_cast<int16_t>(lt.unit));
      w->StructEnd();
      w->StructEnd();
      break;
    case LogicalType::Kind::kInteger:
      w->FieldI8(1, lt.bit_width);
      w->FieldBool(2, lt.is_signed);
      break;
    default:
      break;
  }
  w->StructEnd();
}

void WriteSchemaElementFields(const SchemaElement& e, ThriftCompactWriter* w) {
  if (e.type) w->FieldI32(1, static_cast<int32_t>(*e.type));
  if (e.type_length) w->FieldI32(2, *e.type_length);
  if (e.repetition_type) w->FieldI32(3, static_cast<int32_t>(*e.repetition_type));
  w->FieldBinary(4, e.name);
  if (e.num_children) w->FieldI32(5, *e.num_children);
  if (e.converted_type) w->FieldI32(6, static_cast<int32_t>(*e.converted_type));
  if (e.scale) w->FieldI32(7, *e.scale);
  if (e.precision) w->FieldI32(8, *e.precision);
  if (e.field_id) w->FieldI32(9, *e.field_id);
  if (e.logical_type && e.logical_type->kind != LogicalType::Kind::kNone) {
    w->FieldStructBegin(10);
    WriteLogicalTypeFields(*e.logical_type, w);
    w->StructEnd();
  }
}

void WriteKeyValues(int16_t id, const std::vector<KeyValue>& kvs, ThriftCompactWriter* w) {
  if (kvs.empty()) return;
  w->FieldListBegin(id, ThriftWireType::kStruct, static_cast<int64_t>(kvs.size()));
  for (const KeyValue& kv : kvs) {
    w->StructBegin();
    w->FieldBinary(1, kv.key);
    if (kv.value) w->FieldBinary(2, *kv.value);
    w->StructEnd();
  }
}

void WriteStatistics(int16_t id, const Statistics& s, ThriftCompactWriter* w) {
  w->FieldStructBegin(id);
  if (s.max) w->FieldBinary(1, *s.max);
  if (s.min) w->FieldBinary(2, *s.min);
  if (s.null_count) w->FieldI64(3, *s.null_count);
  if (s.distinct_count) w->FieldI64(4, *s.distinct_count);
  if (s.max_value) w->FieldBinary(5, *s.max_value);
  if (s.min_value) w->FieldBinary(6, *s.min_value);
  if (s.is_max_value_exact) w->FieldBool(7, *s.is_max_value_exact);
  if (s.is_min_value_exact) w->FieldBool(8, *s.is_min_value_exact);
  w->StructEnd();
}

void WriteColumnMetaData(const ColumnMetaData& m, ThriftCompactWriter* w) {
  w->FieldStructBegin(3);
  w->FieldI32(1, static_cast<int32_t>(m.type));
  w->FieldListBegin(2, ThriftWireType::kI32, static_cast<int64_t>(m.encodings.size()));
  for (Encoding e : m.encodings) w->ElementI32(static_cast<int32_t>(e));
  w->FieldListBegin(3, ThriftWireType::kBinary, static_cast<int64_t>(m.path_in_schema.size()));
  for (const std::string& p : m.path_in_schema) w->ElementBinary(p);
  w->FieldI32(4, static_cast<int32_t>(m.codec));
  w->FieldI64(5, m.num_values);
  w->FieldI64(6, m.total_uncompressed_size);
  w->FieldI64(7, m.total_compressed_size);
  WriteKeyValues(8, m.key_value_metadata, w);
  w->FieldI64(9, m.data_page_offset);
  if (m.index_page_offset) w->FieldI64(10, *m.index_page_offset);
  if (m.dictionary_page_offset) w->FieldI64(11, *m.dictionary_page_offset);
  if (m.statistics) WriteStatistics(12, *m.statistics, w);
  if (!m.encoding_stats.empty()) {
    w->FieldListBegin(13, ThriftWireType::kStruct, static_cast<int64_t>(m.encoding_stats.size()));
    for (const PageEncodingStats& s : m.encoding_stats) {
      w->StructBegin();
      w->FieldI32(1, static_cast<int32_t>(s.page_type));
      w->FieldI32(2, static_cast<int32_t>(s.encoding));
      w->FieldI32(3, s.count);
      w->StructEnd();
    }
  }
  if (m.bloom_filter_offset) w->FieldI64(14, *m.bloom_filter_offset);
  if (m.bloom_filter_length) w->FieldI32(15, *m.bloom_filter_length);
  w->StructEnd();
}

void WriteRowGroup(const RowGroup& rg, ThriftCompactWriter* w) {
  w->StructBegin();
  w->FieldListBegin(1, ThriftWireType::kStruct, static_cast<int64_t>(rg.columns.size()));
  for (const ColumnChunk& c : rg.columns) {
    w->StructBegin();
    if (c.file_path) w->FieldBinary(1, *c.file_path);
    w->FieldI64(2, c.file_offset);
    if (c.meta_data) WriteColumnMetaData(*c.meta_data, w);
    if (c.offset_index_offset) w->FieldI64(4, *c.offset_index_offset);
    if (c.offset_index_length) w->FieldI32(5, *c.offset_index_length);
    if (c.column_index_offset) w->FieldI64(6, *c.column_index_offset);
    if (c.column_index_length) w->FieldI32(7, *c.column_index_length);
    w->StructEnd();
  }
  w->FieldI64(2, rg.total_byte_size);
  w->FieldI64(3, rg.num_rows);
  if (!rg.sorting_columns.empty()) {
    w->FieldListBegin(4, ThriftWireType::kStruct, static_cast<int64_t>(rg.sorting_columns.size()));
    for (const SortingColumn& s : rg.sorting_columns) {
      w->StructBegin();
      w->FieldI32(1, s.column_idx);
      w->FieldBool(2, s.descending);
      w->FieldBool(3, s.nulls_first);
      w->StructEnd();
    }
  }
  if (rg.file_offset) w->FieldI64(5, *rg.file_offset);
  if (rg.total_compressed_size) w->FieldI64(6, *rg.total_compressed_size);
  if (rg.ordinal) w->FieldI16(7, *rg.ordinal);
  w->StructEnd();
}

}  // namespace

void SerializeFileMetaData(const FileMetaData& meta, std::string* out) {
  ThriftCompactWriter w(out);
  w.StructBegin();
  w.FieldI32(1, meta.version);
  w.FieldListBegin(2, ThriftWireType::kStruct, static_cast<int64_t>(meta.schema.size()));
  for (const SchemaElement& e : meta.schema) {
    w.StructBegin();
    WriteSchemaElementFields(e, &w);
    w.StructEnd();
  }
  w.FieldI64(3, meta.num_rows);
  w.FieldListBegin(4, ThriftWireType::kStruct, static_cast<int64_t>(meta.row_groups.size()));
  for (const RowGroup& rg : meta.row_groups) WriteRowGroup(rg, &w);
  WriteKeyValues(5, meta.key_value_metadata, &w);
  if (meta.created_by) w.FieldBinary(6, *meta.created_by);
  if (!meta.column_orders.empty()) {
    w.FieldListBegin(7, ThriftWireType::kStruct, static_cast<int64_t>(meta.column_orders.size()));
    for (const ColumnOrder& order : meta.column_orders) {
      w.StructBegin();
      if (order.type_defined_order) {
        w.FieldStructBegin(1);  // TYPE_ORDER: an empty struct
        w.StructEnd();
      }
      w.StructEnd();
    }
  }
  w.StructEnd();
}

void SerializePageHeader(const PageHeader& h, std::string* out) {
  ThriftCompactWriter w(out);
  w.StructBegin();
  w.FieldI32(1, static_cast<int32_t>(h.type));
  w.FieldI32(2, h.uncompressed_page_size);
  w.FieldI32(3, h.compressed_page_size);
  if (h.crc) w.FieldI32(4, *h.crc);
  if (h.data_page_header) {
    const DataPageHeader& d = *h.data_page_header;
    w.FieldStructBegin(5);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, static_cast<int32_t>(d.encoding));
    w.FieldI32(3, static_cast<int32_t>(d.definition_level_encoding));
    w.FieldI32(4, static_cast<int32_t>(d.repetition_level_encoding));
    if (d.statistics) WriteStatistics(5, *d.statistics, &w);
    w.StructEnd();
  }
  if (h.dictionary_page_header) {
    const DictionaryPageHeader& d = *h.dictionary_page_header;
    w.FieldStructBegin(7);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, static_cast<int32_t>(d.encoding));
    if (d.is_sorted) w.FieldBool(3, *d.is_sorted);
    w.StructEnd();
  }
  if (h.data_page_header_v2) {
    const DataPageHeaderV2& d = *h.data_page_header_v2;
    w.FieldStructBegin(8);
    w.FieldI32(1, d.num_values);
    w.FieldI32(2, d.num_nulls);
    w.FieldI32(3, d.num_rows);
    w.FieldI32(4, static_cast<int32_t>(d.encoding));
    w.FieldI32(5, d.definition_levels_byte_length);
    w.FieldI32(6, d.repetition_levels_byte_length);
    if (d.is_compressed) w.FieldBool(7, *d.is_compressed);
    if (d.statistics) WriteStatistics(8, *d.statistics, &w);
    w.StructEnd();
  }
  w.StructEnd();
}

void SerializeColumnIndex(const ColumnIndex& index, std::string* out) {
  ThriftCompactWriter w(out);
  w.StructBegin();
  w.FieldListBegin(1, ThriftWireType::kBoolTrue, static_cast<int64_t>(index.null_pages.size()));
  for (bool null_page : index.null_pages) w.ElementBool(null_page);
  w.FieldListBegin(2, ThriftWireType::kBinary, static_cast<int64_t>(index.min_values.size()));
  for (const std::string& v : index.min_values) w.ElementBinary(v);
  w.FieldListBegin(3, ThriftWireType::kBinary, static_cast<int64_t>(index.max_values.size()));
  for (const std::string& v : index.max_values) w.ElementBinary(v);
  w.FieldI32(4, static_cast<int32_t>(index.boundary_order));
  if (!index.null_counts.empty()) {
    w.FieldListBegin(5, ThriftWireType::kI64, static_cast<int64_t>(index.null_counts.size()));
    for (int64_t n : index.null_counts) w.ElementI64(n);
  }
  w.StructEnd();
}

void SerializeOffsetIndex(const OffsetIndex& index, std::string* out) {
  ThriftCompactWriter w(out);
  w.StructBegin();
  w.FieldListBegin(1, ThriftWireType::kStruct, static_cast<int64_t>(index.page_locations.size()));
  for (const PageLocation& loc : index.page_locations) {
    w.StructBegin();
    w.FieldI64(1, loc.offset);
    w.FieldI32(2, loc.compressed_page_size);
    w.FieldI64(3, loc.first_row_index);
    w.StructEnd();
  }
  if (!index.unencoded_byte_array_data_bytes.empty()) {
    w.FieldListBegin(2, ThriftWireType::kI64,
                     static_cast<int64_t>(index.unencoded_byte_array_data_bytes.size()));
    for (int64_t n : index.unencoded_byte_array_data_bytes) w.ElementI64(n);
  }
  w.StructEnd();
}

}  // namespace sluice::parquet
