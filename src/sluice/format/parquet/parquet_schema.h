// ParquetSchema: the tree view of a file's flat schema (FileMetaData.schema, depth-first), with
// the definition and repetition levels of every node, and the mapping of Parquet types to
// Paimon types (format-spec 7.4, plus what other writers produce: legacy lists and maps,
// unsigned integers, INT96, nanosecond timestamps).
//
// Shared with the writer, which adds the Paimon -> Parquet direction.
//
// Thread safety: immutable after Make(); safe to share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/result.h"

namespace sluice::parquet {

struct SchemaNode {
  const SchemaElement* element = nullptr;
  const SchemaNode* parent = nullptr;
  std::vector<std::unique_ptr<SchemaNode>> children;
  // Levels of this node: the number of non-required (definition) and repeated (repetition)
  // nodes on the path from the root down to and including this node.
  int16_t def_level = 0;
  int16_t rep_level = 0;
  // Index among the leaves (the file's column chunks), or -1 for groups.
  int leaf_index = -1;
  // Dotted path, for messages ("a.list.element").
  std::string path;

  bool is_leaf() const { return element->type.has_value(); }
  bool is_repeated() const { return element->repetition_type == Repetition::kRepeated; }
  bool is_optional() const { return element->repetition_type == Repetition::kOptional; }
  bool has_field_id() const { return element->field_id.has_value(); }
  // True if annotated LIST (logical or converted type).
  bool IsListAnnotated() const;
  // True if annotated MAP or MAP_KEY_VALUE.
  bool IsMapAnnotated() const;
};

class ParquetSchema {
 public:
  static constexpr int kMaxDepth = 64;

  // Builds the tree; fails on inconsistent child counts, leaves without a physical type and
  // nesting deeper than kMaxDepth. The metadata must outlive the schema.
  static Result<std::unique_ptr<ParquetSchema>> Make(const FileMetaData& metadata);

  const SchemaNode& root() const { return root_; }
  const std::vector<const SchemaNode*>& leaves() const { return leaves_; }

  // The Paimon ROW type of the whole file (field ids from the file, else positions).
  // Types without a Paimon equivalent give NotSupported naming the column.
  Result<DataTypePtr> ToPaimonType() const;

 private:
  SchemaNode root_;
  std::vector<const SchemaNode*> leaves_;
};

// The Paimon type of one node (a column of the file, at any depth).
Result<DataTypePtr> ParquetToPaimonType(const SchemaNode& node);

// The repeated child and the element of a list-shaped node: for a LIST-annotated group, its
// repeated child and the element chosen by parquet-format's backward-compatibility rules
// (LogicalTypes.md); for an unannotated repeated field, the field itself twice. `element_is_row`
// breaks the tie of a one-field repeated group in favour of the group when the reader wants rows.
// `as_element`: `node` is itself the repeated element of an outer legacy list (a repeated
// LIST-annotated group), so its own repeated child is the list's.
struct ListShape {
  const SchemaNode* repeated = nullptr;
  const SchemaNode* element = nullptr;
};
Result<ListShape> ResolveList(const SchemaNode& node, bool element_is_row, bool as_element = false);

// The repeated key_value group, key and (possibly absent) value nodes of a map-shaped node.
struct MapShape {
  const SchemaNode* repeated = nullptr;
  const SchemaNode* key = nullptr;
  const SchemaNode* value = nullptr;
};
Result<MapShape> ResolveMap(const SchemaNode& node);

}  // namespace sluice::parquet
