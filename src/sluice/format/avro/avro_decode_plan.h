// The decode plan of AvroRecordDecoder: one node per writer value, saying how its bytes become
// the read type's column values. Internal to the Avro codec.
//
// Thread safety: immutable after building.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/format/avro/avro_schema.h"
#include "sluice/result.h"

namespace sluice {

enum class AvroDecodeOp : unsigned char {
  kSkip,      // a writer value nobody reads
  kNull,      // writer type "null": a null value
  kOptional,  // writer ["null", T] / [T, "null"]: children[0] reads T
  kUnion,     // any other writer union: branch_child maps branches to children
  kBoolean,
  kIntToInt8,
  kIntToInt16,
  kIntToInt32,
  kIntToInt64,
  kLongToInt64,
  kIntToFloat,
  kLongToFloat,
  kFloatToFloat,
  kIntToDouble,
  kLongToDouble,
  kFloatToDouble,
  kDoubleToDouble,
  kTimeMicrosToMillis,
  kMillisToTimestamp,
  kMicrosToTimestamp,
  kNanosToTimestamp,
  kBytes,  // Avro bytes or string into a bytes column
  kFixedToBytes,
  kEnumToString,
  kDecimalBytesToInt64,
  kDecimalBytesToInt128,
  kDecimalFixedToInt64,
  kDecimalFixedToInt128,
  kArray,     // children[0] reads the items into child(0)
  kMap,       // Avro map: keys into child(0), children[0] reads the values into child(1)
  kArrayMap,  // array of {key, value} records: children[0] (a kRecord) reads them
  kRecord,    // children[i] reads writer field i into target field_target[i]
};

// AvroDecodeNode::branch_child entries that are not child indexes.
inline constexpr int32_t kAvroNullBranch = -1;
inline constexpr int32_t kAvroUnreadableBranch = -2;

struct AvroDecodeNode {
  AvroDecodeOp op = AvroDecodeOp::kSkip;
  const AvroSchema* writer = nullptr;  // owned by the decoder's writer schema
  std::string path;                    // dotted field path, for error messages
  int32_t null_branch = -1;            // kOptional
  int32_t fixed_size = 0;              // kFixedToBytes, kDecimalFixed*
  int32_t min_item_size = 0;           // kArray, kMap, kArrayMap: fewest bytes per item
  std::vector<int32_t> branch_child;   // kUnion: child per writer branch
  std::vector<AvroDecodeNode> children;
  std::vector<int32_t> field_target;  // kRecord: read field of each writer field, -1 = skip
  std::vector<int32_t> missing;       // kRecord: read fields the writer lacks (read as null)
};

// The plan reading writer record `record` into the fields `fields` (matched by name). Errors
// (NotSupported) name the field whose writer type cannot be read as its read type.
Result<AvroDecodeNode> BuildAvroRecordPlan(const AvroSchema& record,
                                           const std::vector<DataField>& fields);

// A schema as (truncated) JSON, for error messages.
std::string DescribeAvroSchema(const AvroSchema& s);

}  // namespace sluice
