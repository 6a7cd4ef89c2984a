// AvroSchema: an Avro schema tree (Avro 1.11 specification, "Schema Declaration"), parsed from
// the JSON a container file carries in its `avro.schema` metadata and printed back as compact
// JSON in the attribute order Java's Avro library writes.
//
// Named types may be referenced again by name; such references share the node. Recursive
// schemas are rejected (no Paimon type can hold them).
//
// Thread safety: immutable after parsing, safe to share across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice {

enum class AvroType : unsigned char {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

// The `logicalType` attribute, when it is one this codec interprets. Unknown logical types are
// ignored, as the specification requires.
enum class AvroLogicalType : unsigned char {
  kNone,
  kDecimal,               // bytes or fixed; precision / scale
  kDate,                  // int
  kTimeMillis,            // int
  kTimeMicros,            // long
  kTimestampMillis,       // long
  kTimestampMicros,       // long
  kTimestampNanos,        // long
  kLocalTimestampMillis,  // long
  kLocalTimestampMicros,  // long
  kLocalTimestampNanos,   // long
  kMap,                   // array of {key, value} records: Paimon's map with non-string keys
};

std::string_view AvroTypeName(AvroType type);

class AvroSchema;
using AvroSchemaPtr = std::shared_ptr<const AvroSchema>;

struct AvroField {
  std::string name;
  AvroSchemaPtr schema;
  // The field's "default" attribute as compact JSON text; empty when there is none.
  std::string default_json;
};

class AvroSchema {
 public:
  AvroType type = AvroType::kNull;
  AvroLogicalType logical_type = AvroLogicalType::kNone;
  // Named types (record, enum, fixed): simple name and namespace ("" when none).
  std::string name;
  std::string name_space;
  // kRecord.
  std::vector<AvroField> fields;
  // kEnum.
  std::vector<std::string> symbols;
  // kUnion.
  std::vector<AvroSchemaPtr> branches;
  // kArray: the items; kMap: the values.
  AvroSchemaPtr items;
  // kFixed.
  int32_t fixed_size = 0;
  // kDecimal.
  int32_t precision = 0;
  int32_t scale = 0;

  bool is_named() const {
    return type == AvroType::kRecord || type == AvroType::kEnum || type == AvroType::kFixed;
  }
  std::string full_name() const { return name_space.empty() ? name : name_space + "." + name; }
  // Index of the record field with this name, or -1.
  int FieldIndex(std::string_view field_name) const;
  // For a two-branch union with one "null" branch: the index of the null branch, else -1.
  int NullBranchOfOptional() const;

  // Fewest bytes one value of this schema can take (0 for null, empty records, fixed(0) ...).
  // Decoders use it to reject item counts that cannot fit in the remaining input.
  int MinEncodedSize() const;
};

// Parses a schema JSON document. Errors are InvalidArgument describing the offending part.
Result<AvroSchemaPtr> ParseAvroSchema(std::string_view json);

// Compact JSON as Java's Avro `Schema.toString()` writes it: named types print "namespace" only
// where it differs from the enclosing one and are printed in full only at their first use.
std::string AvroSchemaToJson(const AvroSchema& schema);

}  // namespace sluice
