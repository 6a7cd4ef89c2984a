// ThriftCompactWriter: encodes the Parquet metadata structs of parquet_metadata.h with the
// Thrift compact protocol, the encoding of every Parquet footer and page header.
//
// Only what a writer needs: fields are written in ascending id order, optional fields only when
// set, unknown fields never.
//
// Thread safety: a ThriftCompactWriter is not thread-safe; the Serialize* functions are.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/format/parquet/thrift_wire_type.h"

namespace sluice::parquet {

// Appends compact-protocol tokens to a string. Structs nest: every StructBegin (or
// FieldStructBegin) is matched by a StructEnd.
class ThriftCompactWriter {
 public:
  explicit ThriftCompactWriter(std::string* out) : out_(out) {}

  void StructBegin() { last_field_ids_.push_back(0); }
  // Writes the stop byte and returns to the enclosing struct's field numbering.
  void StructEnd();

  void FieldBool(int16_t id, bool v);
  void FieldI8(int16_t id, int8_t v);
  void FieldI16(int16_t id, int16_t v);
  void FieldI32(int16_t id, int32_t v);
  void FieldI64(int16_t id, int64_t v);
  void FieldBinary(int16_t id, std::string_view v);
  // A struct-valued field: the header, then StructBegin. Close with StructEnd.
  void FieldStructBegin(int16_t id);
  // A list-valued field's header; the caller then writes `size` elements with the Element*
  // calls (struct elements with StructBegin / StructEnd).
  void FieldListBegin(int16_t id, ThriftWireType element_type, int64_t size);

  void ElementI32(int32_t v) { PutVarint(ZigZag(v)); }
  void ElementI64(int64_t v) { PutVarint(ZigZag(v)); }
  void ElementBinary(std::string_view v);
  void ElementBool(bool v) { out_->push_back(v ? 1 : 2); }

 private:
  static uint64_t ZigZag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  }
  void FieldHeader(int16_t id, ThriftWireType type);
  void PutVarint(uint64_t v);

  std::string* out_;
  std::vector<int16_t> last_field_ids_;
};

// Appends the compact encoding of each struct to `out`.
void SerializeFileMetaData(const FileMetaData& meta, std::string* out);
void SerializePageHeader(const PageHeader& header, std::string* out);
void SerializeColumnIndex(const ColumnIndex& index, std::string* out);
void SerializeOffsetIndex(const OffsetIndex& index, std::string* out);

}  // namespace sluice::parquet
