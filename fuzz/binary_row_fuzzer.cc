// libFuzzer target: arbitrary bytes decoded as a BinaryRow of a few fixed row types (flat, the
// all-types stats row, deeply nested, DataFileMeta-like). Decoding must return a Status on any
// input, never crash; whatever decodes must encode again and decode to the same shape.
//
// Input: byte 0 selects the type (bits 0-1) and the framing (bit 2: serialized with a 4-byte
// big-endian arity prefix, as in manifests); the rest is the row.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/row/binary_array.h"
#include "sluice/row/binary_map.h"
#include "sluice/row/binary_row.h"
#include "sluice/row/bucket.h"

namespace {

using sluice::DataField;
using sluice::DataType;
using sluice::DataTypePtr;

DataTypePtr RowOf(std::vector<DataTypePtr> types) {
  std::vector<DataField> fields;
  for (size_t i = 0; i < types.size(); ++i) {
    DataField f;
    f.id = static_cast<int32_t>(i);
    f.name = "f" + std::to_string(i);
    f.type = types[i];
    fields.push_back(std::move(f));
  }
  return DataType::Row(std::move(fields));
}

std::vector<DataTypePtr> MakeTypes() {
  auto inner = RowOf({DataType::String(), DataType::Int(), DataType::Array(DataType::Int())});
  return {
      RowOf({DataType::Int(), DataType::String()}),
      RowOf({DataType::Boolean(), DataType::TinyInt(), DataType::SmallInt(), DataType::Int(),
             DataType::BigInt(), DataType::Float(), DataType::Double(), DataType::String(),
             DataType::Bytes(), DataType::Array(DataType::Int()), RowOf({DataType::Int()}),
             DataType::Timestamp(6), DataType::Date(), DataType::Decimal(2, 2),
             DataType::Decimal(10, 10), DataType::Decimal(19, 19)}),
      RowOf({inner, DataType::Map(DataType::Int(), DataType::String()),
             DataType::Multiset(DataType::String()),
             DataType::Array(DataType::Array(DataType::Decimal(30, 3))), DataType::Variant(),
             DataType::Vector(DataType::Float(), 3), DataType::Timestamp(9),
             DataType::Decimal(38, 10), DataType::Map(DataType::String(), inner)}),
      RowOf({DataType::String(), DataType::BigInt(), DataType::Bytes(),
             RowOf({DataType::Bytes(), DataType::Bytes(), DataType::Array(DataType::BigInt())}),
             DataType::Array(DataType::String()), DataType::TimestampLtz(3), DataType::Blob()}),
  };
}

// Reads every field through the view accessors, whatever their declared type. Errors are
// ignored: on random bytes they are the expected answer; the fuzzer looks for crashes only.
void TouchAccessors(const sluice::BinaryRowView& row) {
  for (int i = 0; i < row.arity(); ++i) {
    (void)row.IsNullAt(i);
    (void)row.GetLong(i);
    (void)row.GetDouble(i);
    row.GetString(i).status().IgnoreError();
    row.GetNested(i).status().IgnoreError();
    row.GetDecimal(i, 20, 2).status().IgnoreError();
    row.GetTimestamp(i, 9).status().IgnoreError();
    if (auto nested = row.GetNested(i); nested.ok()) {
      sluice::DecodeBinaryArray(*nested, *DataType::BigInt()).status().IgnoreError();
      sluice::DecodeBinaryMap(*nested, *DataType::String(), *DataType::Int())
          .status()
          .IgnoreError();
    }
  }
  (void)row.AnyNull();
  (void)sluice::DefaultBucket(row, 7);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<DataTypePtr> kTypes = MakeTypes();
  if (size == 0) return 0;
  const DataTypePtr& type = kTypes[data[0] & 3];
  const bool serialized = (data[0] & 4) != 0;
  // Copy so that reads past the end are caught by the sanitizers.
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto row = serialized ? sluice::BinaryRowView::FromSerialized(input)
                        : sluice::BinaryRowView::Make(input, type->num_fields());
  if (!row.ok()) return 0;
  TouchAccessors(*row);
  auto values = sluice::DecodeBinaryRow(*row, *type);
  if (!values.ok()) return 0;
  auto encoded = sluice::EncodeBinaryRow(*values, *type, sluice::RowKind::kInsert,
                                         sluice::DetectNullReservation(*row, *type));
  if (!encoded.ok()) __builtin_trap();
  auto again = sluice::DecodeBinaryRow(*encoded, *type);
  if (!again.ok() || again->size() != values->size()) __builtin_trap();
  return 0;
}
