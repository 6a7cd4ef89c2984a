"""A table by pypaimon's names: read and write builders, time travel through copy(options),
tags, snapshots and rollback."""

from typing import Dict, List, Optional, Union

import pyarrow as pa

from . import _arrow
from .errors import NotFoundError
from .read import ReadBuilder, StreamReadBuilder
from .write import BatchWriteBuilder, StreamWriteBuilder


class Table:
    def __init__(self, catalog, native, dynamic_options: Optional[Dict[str, str]] = None):
        self._catalog = catalog
        self._native = native
        self._dynamic_options = dict(dynamic_options or {})

    @property
    def identifier(self) -> str:
        """`db.table` (with `$branch_<b>` for a branch)."""
        return self._native.name

    @property
    def path(self) -> str:
        return self._native.path

    @property
    def arrow_schema(self) -> pa.Schema:
        """The table's columns as Arrow types (each field's Paimon id in its metadata)."""
        return _arrow.schema_from_capsule(self._native.arrow_schema())

    @property
    def primary_keys(self) -> List[str]:
        return list(self._native.primary_keys)

    @property
    def partition_keys(self) -> List[str]:
        return list(self._native.partition_keys)

    @property
    def options(self) -> Dict[str, str]:
        """The schema's options with this handle's dynamic options over them."""
        return {**dict(self._native.options), **self._dynamic_options}

    @property
    def comment(self) -> Optional[str]:
        return self._native.comment

    def copy(self, options: Dict[str, str]) -> "Table":
        """The same table with dynamic options for its reads and writes: time travel
        (`scan.snapshot-id`, `scan.tag-name`, `scan.timestamp-millis`), `scan.mode`, incremental
        reads (`incremental-between`), write options. A None value removes an option."""
        merged = dict(self._dynamic_options)
        for key, value in options.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = str(value)
        return Table(self._catalog, self._native, merged)

    def new_read_builder(self) -> ReadBuilder:
        return ReadBuilder(self)

    def new_stream_read_builder(self) -> StreamReadBuilder:
        return StreamReadBuilder(self)

    def new_batch_write_builder(self) -> BatchWriteBuilder:
        return BatchWriteBuilder(self)

    def new_stream_write_builder(self) -> StreamWriteBuilder:
        return StreamWriteBuilder(self)

    # Snapshots.

    def snapshots(self) -> List[dict]:
        """The snapshots as they are now, oldest first: id, schema_id, commit_kind,
        commit_user, commit_identifier, time_millis, total_record_count, delta_record_count."""
        return self._native.snapshots()

    def latest_snapshot_id(self) -> Optional[int]:
        snapshots = self.snapshots()
        return snapshots[-1]["id"] if snapshots else None

    def rollback_to(self, target: Union[int, str]) -> None:
        """Rolls the table back to a snapshot id (int) or a tag (str)."""
        key = "tag" if isinstance(target, str) else "snapshot_id"
        self._procedure("rollback_to", **{key: target})

    # Tags.

    def list_tags(self) -> List[str]:
        tags = self._catalog.read_system_table(self.identifier + "$tags")
        return tags.column("tag_name").to_pylist()

    def create_tag(self, tag_name: str, snapshot_id: Optional[int] = None,
                   ignore_if_exists: bool = False, time_retained: Optional[str] = None) -> None:
        """Tags a snapshot (default the latest). `time_retained`: a duration such as `1 d`."""
        if ignore_if_exists and tag_name in self.list_tags():
            return
        self._procedure("create_tag", tag=tag_name, snapshot_id=snapshot_id,
                        time_retained=time_retained)

    def replace_tag(self, tag_name: str, snapshot_id: Optional[int] = None,
                    time_retained: Optional[str] = None) -> None:
        self._procedure("replace_tag", tag=tag_name, snapshot_id=snapshot_id,
                        time_retained=time_retained)

    def rename_tag(self, old_name: str, new_name: str) -> None:
        self._procedure("rename_tag", tagName=old_name, targetTagName=new_name)

    def delete_tag(self, tag_name: str) -> bool:
        """True when the tag was deleted, False when there was no such tag."""
        try:
            self._procedure("delete_tag", tag=tag_name)
        except NotFoundError:
            return False
        return True

    def _procedure(self, name: str, **args) -> List[str]:
        return self._catalog.call_procedure(name, table=self.identifier, **args)

    def __repr__(self):
        return "Table(" + self.identifier + ")"
