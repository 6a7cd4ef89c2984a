"""Writes by pypaimon's names: BatchWriteBuilder -> new_write().write_arrow / write_pandas ->
prepare_commit() -> new_commit().commit(messages); StreamWriteBuilder for repeated commits."""

from typing import Dict, List, Optional

import pyarrow as pa

from . import _arrow, _native

# The identifier of a batch write's one commit (Java BatchWriteBuilder.COMMIT_IDENTIFIER).
BATCH_COMMIT_IDENTIFIER = _native.BATCH_COMMIT_IDENTIFIER

_ROW_KIND = "_ROW_KIND"


class CommitMessage:
    """The files a write made for one partition and bucket. Pickles (Sluice's versioned
    serialized form), so writers in other processes can hand them to one committer."""

    def __init__(self, native):
        self._native = native

    @property
    def bucket(self) -> int:
        return self._native.bucket

    def is_empty(self) -> bool:
        return self._native.is_empty()

    def serialize(self) -> bytes:
        return self._native.serialize()

    @staticmethod
    def deserialize(data: bytes) -> "CommitMessage":
        return CommitMessage(_native.CommitMessage.deserialize(data))

    def __reduce__(self):
        return (CommitMessage.deserialize, (self.serialize(),))


class TableWrite:
    """Rows in (Arrow or pandas; columns by name, an optional `_ROW_KIND` string column of
    +I / -U / +U / -D for primary-key tables), commit messages out."""

    def __init__(self, table, native):
        self._table = table
        self._native = native

    def write_arrow(self, data) -> None:
        """Writes a pyarrow Table, RecordBatch or RecordBatchReader (or any Arrow stream)."""
        self._native.write_stream(_arrow.stream_capsule(data))

    def write_arrow_batch(self, data: pa.RecordBatch) -> None:
        self.write_arrow(data)

    def write_pandas(self, dataframe) -> None:
        schema = self._table.arrow_schema
        if _ROW_KIND in dataframe.columns:
            schema = schema.append(pa.field(_ROW_KIND, pa.string()))
        self.write_arrow(pa.Table.from_pandas(dataframe, schema=schema, preserve_index=False))

    def compact(self, full: bool = False) -> None:
        """Compacts every bucket (into one sorted run each when `full`); the result is part of
        the next prepare_commit."""
        self._native.compact(full)

    def _prepare(self, commit_identifier: int) -> List[CommitMessage]:
        return [CommitMessage(m) for m in self._native.prepare_commit(commit_identifier)]

    def close(self) -> None:
        self._native.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class BatchTableWrite(TableWrite):
    def prepare_commit(self) -> List[CommitMessage]:
        return self._prepare(BATCH_COMMIT_IDENTIFIER)


class StreamTableWrite(TableWrite):
    def prepare_commit(self, commit_identifier: int) -> List[CommitMessage]:
        return self._prepare(commit_identifier)


class TableCommit:
    def __init__(self, native):
        self._native = native

    def _commit(self, messages: List[CommitMessage], commit_identifier: int) -> List[int]:
        return self._native.commit([m._native for m in messages], commit_identifier)

    def close(self) -> None:
        """Nothing to release; pypaimon's name."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class BatchTableCommit(TableCommit):
    def commit(self, commit_messages: List[CommitMessage]) -> List[int]:
        """Commits once; returns the snapshot ids made (none when there was nothing to commit)."""
        return self._commit(commit_messages, BATCH_COMMIT_IDENTIFIER)


class StreamTableCommit(TableCommit):
    def commit(self, commit_messages: List[CommitMessage], commit_identifier: int) -> List[int]:
        """Commits a checkpoint; identifiers of one commit user must increase (a replayed one is
        skipped)."""
        return self._commit(commit_messages, commit_identifier)


class _WriteBuilder:
    def __init__(self, table):
        self._table = table
        self._static_partition: Optional[Dict] = None

    def _native(self):
        builder = _native.WriteBuilder(self._table._native)
        for key, value in self._table._dynamic_options.items():
            builder.with_option(key, value)
        if self._static_partition is not None:
            builder.with_overwrite([(k, _partition_text(v))
                                    for k, v in self._static_partition.items()])
        return builder


def _partition_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


class BatchWriteBuilder(_WriteBuilder):
    """One write, committed once. overwrite() replaces the partitions matching a static
    partition dict (the whole table for {} or None)."""

    def __init__(self, table):
        super().__init__(table)
        self._builder = None

    def overwrite(self, static_partition: Optional[Dict] = None) -> "BatchWriteBuilder":
        self._static_partition = dict(static_partition or {})
        self._builder = None
        return self

    def _shared(self):
        # The write and the commit share one commit user, as pypaimon's builder does.
        if self._builder is None:
            self._builder = self._native()
        return self._builder

    @property
    def commit_user(self) -> str:
        return self._shared().commit_user

    def new_write(self) -> BatchTableWrite:
        return BatchTableWrite(self._table, self._shared().new_write())

    def new_commit(self) -> BatchTableCommit:
        return BatchTableCommit(self._shared().new_commit())


class StreamWriteBuilder(_WriteBuilder):
    """Writes committed in many rounds, each under an increasing commit identifier."""

    def __init__(self, table):
        super().__init__(table)
        self._builder = self._native()

    @property
    def commit_user(self) -> str:
        return self._builder.commit_user

    def with_commit_user(self, commit_user: str) -> "StreamWriteBuilder":
        self._builder.with_commit_user(commit_user)
        return self

    def new_write(self) -> StreamTableWrite:
        return StreamTableWrite(self._table, self._builder.new_write())

    def new_commit(self) -> StreamTableCommit:
        return StreamTableCommit(self._builder.new_commit())
