// Conversion between one slot of a BinaryRow / BinaryArray and a Value, shared by the row, array
// and map codecs. Nested values recurse into DecodeBinaryRow / DecodeBinaryArray / DecodeBinaryMap.
//
// Representation of the types without a Value kind of their own:
//   VARIANT -> Binary: the stored item, int32 LE value length + value bytes + metadata bytes.
//   BLOB    -> Binary: the serialized blob descriptor bytes.
//   VECTOR  -> Array of its primitive elements (no nulls).
//   MULTISET-> Map of element -> Int32 count.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <string_view>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/row/binary_writer.h"
#include "sluice/value.h"

namespace sluice {

// Reads the non-null value of `type` whose slot starts at `slot_offset` of `section` (the bytes of
// the enclosing row or array; out-of-line offsets are relative to it). Fixed-width types read
// their own width (1, 2, 4 or 8 bytes).
// REQUIRES: the slot (of the type's width) lies within `section`.
Result<Value> ReadBinaryValue(std::string_view section, size_t slot_offset, const DataType& type);

// Writes the non-null `value` of `type` at position `pos`. A Value of the wrong kind is
// InvalidArgument.
Status WriteBinaryValue(BinaryWriter* writer, int pos, const Value& value, const DataType& type);

}  // namespace sluice
