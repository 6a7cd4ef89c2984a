// ThriftCompactReader: decodes the Parquet metadata structs (parquet_metadata.h) from Thrift's
// compact protocol, the encoding of the file footer, page headers and page index.
//
// Every read is bounds-checked: garbage, truncated input and lying lengths or counts give a
// Corruption naming the struct and field being decoded, never a crash or an unbounded
// allocation. Nesting deeper than kMaxDepth is rejected.
//
// Thread safety: the free functions are thread-safe; a ThriftCompactReader is not.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/format/parquet/thrift_wire_type.h"
#include "sluice/result.h"

namespace sluice::parquet {

class ThriftCompactReader {
 public:
  static constexpr int kMaxDepth = 64;

  ThriftCompactReader(const uint8_t* data, size_t size)
      : pos_(data), begin_(data), end_(data + size) {}

  // Bytes consumed so far.
  size_t position() const { return static_cast<size_t>(pos_ - begin_); }

  // Reads the next field header of the current struct. Sets *type = kStop at the end of it.
  Status ReadFieldHeader(int16_t* last_id, int16_t* id, ThriftWireType* type);
  // Reads a value of a field (or list element) of wire type `type`; a mismatch of the wire type
  // and the expected one is Corruption.
  Status ReadBool(ThriftWireType type, bool* out);
  Status ReadI8(ThriftWireType type, int8_t* out);
  Status ReadI16(ThriftWireType type, int16_t* out);
  Status ReadI32(ThriftWireType type, int32_t* out);
  Status ReadI64(ThriftWireType type, int64_t* out);
  Status ReadBinary(ThriftWireType type, std::string* out);
  // Reads a list/set header; *size is bounded by the bytes left.
  Status ReadListHeader(ThriftWireType type, ThriftWireType* elem_type, int32_t* size);
  // Skips a value of wire type `type`, recursing into containers.
  Status Skip(ThriftWireType type);

  // Struct nesting guard for recursive decoders.
  Status Enter();
  void Leave() { --depth_; }

 private:
  Status ReadVarint(uint64_t* out);
  Status ReadZigZag(int64_t* out);
  Status SkipDepth(ThriftWireType type, int depth);

  const uint8_t* pos_;
  const uint8_t* begin_;
  const uint8_t* end_;
  int depth_ = 0;
};

// Decoders of whole structs. `*consumed` (when not null) receives the encoded length, so a page
// header's size is known.
Status DecodeFileMetaData(std::string_view data, FileMetaData* out);
Status DecodePageHeader(std::string_view data, PageHeader* out, size_t* consumed);
Status DecodeOffsetIndex(std::string_view data, OffsetIndex* out);
Status DecodeColumnIndex(std::string_view data, ColumnIndex* out);

}  // namespace sluice::parquet
