"""ALTER TABLE changes by pypaimon's SchemaChange names, for Catalog.alter_table. Column types are
pyarrow types (mapped as Schema.from_pyarrow_schema maps them); a nested column is named by its
path, parent first. Java's rules apply (which casts a type change may make, which columns may
be dropped), with errors naming the column."""

from typing import List, NamedTuple, Optional, Union

import pyarrow as pa


class SchemaChange(NamedTuple):
    kind: str
    field_names: List[str] = []
    key: str = ""
    value: str = ""
    data_type: Optional[pa.DataType] = None
    comment: Optional[str] = None
    nullable: bool = True
    keep_nullability: bool = False

    @staticmethod
    def set_option(key: str, value: str) -> "SchemaChange":
        return SchemaChange("set_option", key=key, value=str(value))

    @staticmethod
    def remove_option(key: str) -> "SchemaChange":
        return SchemaChange("remove_option", key=key)

    @staticmethod
    def update_comment(comment: Optional[str]) -> "SchemaChange":
        return SchemaChange("update_comment", comment=comment)

    @staticmethod
    def add_column(field_name: Union[str, List[str]], data_type: pa.DataType,
                   comment: Optional[str] = None) -> "SchemaChange":
        return SchemaChange("add_column", _path(field_name), data_type=data_type, comment=comment)

    @staticmethod
    def rename_column(field_name: Union[str, List[str]], new_name: str) -> "SchemaChange":
        return SchemaChange("rename_column", _path(field_name), value=new_name)

    @staticmethod
    def drop_column(field_name: Union[str, List[str]]) -> "SchemaChange":
        return SchemaChange("drop_column", _path(field_name))

    @staticmethod
    def update_column_type(field_name: Union[str, List[str]], new_data_type: pa.DataType,
                           keep_nullability: bool = False) -> "SchemaChange":
        return SchemaChange("update_column_type", _path(field_name), data_type=new_data_type,
                            keep_nullability=keep_nullability)

    @staticmethod
    def update_column_nullability(field_name: Union[str, List[str]],
                                  new_nullability: bool) -> "SchemaChange":
        return SchemaChange("update_column_nullability", _path(field_name),
                            nullable=new_nullability)

    @staticmethod
    def update_column_comment(field_name: Union[str, List[str]], comment: str) -> "SchemaChange":
        return SchemaChange("update_column_comment", _path(field_name), comment=comment)

    def _native(self):
        type_capsule = None
        if self.data_type is not None:
            # The field is nullable: NOT NULL is update_column_nullability's to say.
            field_schema = pa.schema([pa.field(self.field_names[-1], self.data_type)])
            type_capsule = field_schema.__arrow_c_schema__()
        return (self.kind, list(self.field_names), self.key, self.value, type_capsule,
                self.comment, self.nullable, self.keep_nullability)


def _path(field_name: Union[str, List[str]]) -> List[str]:
    return [field_name] if isinstance(field_name, str) else list(field_name)
