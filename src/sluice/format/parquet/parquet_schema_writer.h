// The Paimon -> Parquet schema mapping of Java Paimon's ParquetSchemaConverter (format spec 7.4):
// root `paimon_schema`, REQUIRED for NOT NULL types, field ids on every field, 3-level LIST and
// MAP groups, and the physical / logical / converted types per Paimon type.
//
// Besides the SchemaElements of the footer it yields the tree the writer shreds batches with:
// the definition and repetition levels of every node and the leaf columns in file order.
//
// Thread safety: value types and a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/result.h"

namespace sluice::parquet {

// One Parquet leaf (primitive) column.
struct WriteLeaf {
  std::vector<std::string> path;  // path_in_schema, without the root
  DataTypePtr type;               // the Paimon type stored in it
  PhysicalType physical_type = PhysicalType::kInt32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  int16_t max_def = 0;
  int16_t max_rep = 0;
  // Index of the top-level column the leaf belongs to, and whether it is that column itself.
  int column = 0;
  bool is_top_level = false;
};

// A node of the write type, annotated for shredding (Dremel levels).
struct WriteNode {
  DataTypePtr type;
  bool optional = false;
  // Definition level of a present value of this node (a null one has def_level - 1).
  int16_t def_level = 0;
  // Repetition level of the entries this node contributes: for ARRAY / MAP nodes, an element
  // other than the first of its list has repetition level rep_level + 1.
  int16_t rep_level = 0;
  // ROW: one per field; ARRAY: the element; MAP / MULTISET: key, value.
  std::vector<WriteNode> children;
  // Index into ParquetWriteSchema::leaves for primitive nodes, else -1.
  int leaf = -1;
};

struct ParquetWriteSchema {
  std::vector<SchemaElement> elements;  // depth-first, elements[0] is the root
  std::vector<WriteNode> columns;       // one per top-level field
  std::vector<WriteLeaf> leaves;        // in file (depth-first) order
};

inline constexpr char kPaimonSchemaName[] = "paimon_schema";

// Maps a Paimon ROW type. NotSupported for types Parquet files of Paimon cannot hold here.
Result<ParquetWriteSchema> MakeParquetWriteSchema(const DataType& row_type);

// Bytes of the FIXED_LEN_BYTE_ARRAY holding a DECIMAL of this precision: the smallest n with
// 2^(8n-1) >= 10^precision.
int32_t DecimalByteWidth(int32_t precision);

}  // namespace sluice::parquet
