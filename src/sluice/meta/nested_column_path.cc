#include "sluice/meta/nested_column_path.h"

#include "sluice/meta/schema_text.h"

namespace sluice {

namespace {

// The fields of the ROW that `type` is, or holds as its ARRAY / MULTISET element or MAP value
// (at any depth), into `fields`; returns how many names of a path that ROW's fields are below
// `type`'s column: 1 for a ROW, one more per ARRAY / MAP level (the path's "element" / "value"
// markers). Java SchemaManager.NestedColumnModifier.extractRowDataFields.
size_t NestedRowFields(const DataType& type, std::vector<DataField>* fields) {
  switch (type.root()) {
    case TypeRoot::kRow:
      *fields = type.fields();
      return 1;
    case TypeRoot::kArray:
    case TypeRoot::kMultiset:
      return NestedRowFields(*type.element(), fields) + 1;
    case TypeRoot::kMap:
      return NestedRowFields(*type.value(), fields) + 1;
    default:
      return 1;
  }
}

// `type` with the ROW NestedRowFields found holding `fields` (Java wrapNewRowType).
DataTypePtr WithNestedRowFields(const DataTypePtr& type, std::vector<DataField> fields) {
  switch (type->root()) {
    case TypeRoot::kRow:
      return DataType::Row(std::move(fields), type->nullable());
    case TypeRoot::kArray:
      return DataType::Array(WithNestedRowFields(type->element(), std::move(fields)),
                             type->nullable());
    case TypeRoot::kMultiset:
      return DataType::Multiset(WithNestedRowFields(type->element(), std::move(fields)),
                                type->nullable());
    case TypeRoot::kMap:
      return DataType::Map(type->key(), WithNestedRowFields(type->value(), std::move(fields)),
                           type->nullable());
    default:
      return type;
  }
}

}  // namespace

DataTypePtr TypeInside(const DataTypePtr& type, size_t depth, size_t path_size) {
  if (depth + 1 >= path_size) return type;
  switch (type->root()) {
    case TypeRoot::kArray:
    case TypeRoot::kMultiset:
      return TypeInside(type->element(), depth + 1, path_size);
    case TypeRoot::kMap:
      return TypeInside(type->value(), depth + 1, path_size);
    default:
      return type;
  }
}

DataTypePtr WithTypeInside(const DataTypePtr& type, DataTypePtr target, size_t depth,
                           size_t path_size) {
  if (depth + 1 >= path_size) return target;
  switch (type->root()) {
    case TypeRoot::kArray:
      return DataType::Array(
          WithTypeInside(type->element(), std::move(target), depth + 1, path_size),
          type->nullable());
    case TypeRoot::kMultiset:
      return DataType::Multiset(
          WithTypeInside(type->element(), std::move(target), depth + 1, path_size),
          type->nullable());
    case TypeRoot::kMap:
      return DataType::Map(type->key(),
                           WithTypeInside(type->value(), std::move(target), depth + 1, path_size),
                           type->nullable());
    default:
      return target;
  }
}

Status UpdateFieldList(std::vector<DataField>* fields, const std::vector<std::string>& path,
                       size_t depth, const FieldListUpdate& update) {
  if (depth + 1 == path.size()) return update(fields, path[depth], depth);
  for (DataField& field : *fields) {
    if (field.name != path[depth]) continue;
    std::vector<DataField> nested;
    const size_t next = depth + NestedRowFields(*field.type, &nested);
    if (next >= path.size()) return update(fields, path[depth], depth);
    if (nested.empty()) {
      return Status::NotSupported("column '" + JavaJoin(path, ".") + "': '" + field.name +
                                  "' holds no ROW");
    }
    SLUICE_RETURN_NOT_OK(UpdateFieldList(&nested, path, next, update));
    field.type = WithNestedRowFields(field.type, std::move(nested));
    return Status::OK();
  }
  return Status::NotFound("column '" + JavaJoin(path, ".") + "' does not exist");
}

}  // namespace sluice
