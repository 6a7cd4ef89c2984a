"""Reads by pypaimon's names: ReadBuilder -> TableScan.plan() -> Splits -> TableRead.to_arrow,
and StreamReadBuilder -> StreamingTableScan.stream_sync() / stream() -> Plans of new snapshots.

A builder gathers the request in Python and makes Sluice's ReadBuilder from it when a scan or a
read is made, so that builders stay plain values (copy, reuse) as in pypaimon.
"""

import asyncio
from typing import AsyncIterator, Iterator, List, Optional

import pyarrow as pa

from . import _arrow, _native
from .predicate import Predicate, PredicateBuilder


class Split:
    """The unit of work of a scan: the files of one bucket of one partition. Pickles (through
    Sluice's versioned serialized form), so a plan can be read in other processes."""

    def __init__(self, native):
        self._native = native

    @property
    def row_count(self) -> int:
        """Rows in the split's files before merging and deletion vectors."""
        return self._native.row_count

    @property
    def bucket(self) -> int:
        return self._native.bucket

    @property
    def file_count(self) -> int:
        return self._native.file_count

    @property
    def snapshot_id(self) -> int:
        return self._native.snapshot_id

    def serialize(self) -> bytes:
        return self._native.serialize()

    @staticmethod
    def deserialize(data: bytes) -> "Split":
        return Split(_native.Split.deserialize(data))

    def __reduce__(self):
        return (Split.deserialize, (self.serialize(),))


class Plan:
    """The splits of one scan, and the snapshot they read (None for a table without one)."""

    def __init__(self, splits: List[Split], snapshot_id: Optional[int]):
        self._splits = splits
        self.snapshot_id = snapshot_id

    def splits(self) -> List[Split]:
        return self._splits


class _Request:
    """What one read asks for, turned into a native ReadBuilder on demand."""

    def __init__(self, table):
        self.table = table
        self.projection: Optional[List[str]] = None
        self.predicate: Optional[Predicate] = None
        self.limit: Optional[int] = None
        self.options = {}

    def native(self, mode: str = "batch"):
        builder = _native.ReadBuilder(self.table._native)
        for key, value in {**self.table._dynamic_options, **self.options}.items():
            builder.with_option(key, value)
        if self.projection is not None:
            builder.with_projection(self.projection)
        if self.predicate is not None:
            builder.with_filter(self.predicate._native)
        if self.limit is not None:
            builder.with_limit(self.limit)
        builder.with_mode(mode)
        return builder


class TableScan:
    def __init__(self, native_builder):
        self._builder = native_builder

    def plan(self) -> Plan:
        snapshot_id, splits = self._builder.plan()
        return Plan([Split(s) for s in splits], snapshot_id)


class TableRead:
    """Reads splits into Arrow. `row_kind`: None to drop the `_ROW_KIND` column of a delta
    read, or the name to give it (pypaimon's `_row_kind`)."""

    def __init__(self, native_builder, row_kind: Optional[str] = None, delta: bool = False):
        self._builder = native_builder
        self._row_kind = row_kind
        self._delta = delta

    def to_arrow_batch_reader(self, splits: List[Split]) -> pa.RecordBatchReader:
        reader = _arrow.reader_from_capsule(self._builder.read([s._native for s in splits]))
        if not self._delta:
            return reader
        return _row_kind_reader(reader, self._row_kind)

    def to_arrow(self, splits: List[Split]) -> pa.Table:
        return self.to_arrow_batch_reader(splits).read_all()

    def to_pandas(self, splits: List[Split]):
        return self.to_arrow(splits).to_pandas()

    def to_iterator(self, splits: List[Split]) -> Iterator[tuple]:
        """Rows as tuples, batch by batch."""
        for batch in self.to_arrow_batch_reader(splits):
            yield from zip(*(column.to_pylist() for column in batch.columns))


def _row_kind_reader(reader: pa.RecordBatchReader, name: Optional[str]) -> pa.RecordBatchReader:
    schema = reader.schema
    index = schema.get_field_index("_ROW_KIND")
    if name is None:
        out_schema = schema.remove(index)
    else:
        out_schema = schema.set(index, schema.field(index).with_name(name))

    def batches():
        for batch in reader:
            if name is None:
                yield batch.drop_columns(["_ROW_KIND"])
            else:
                yield batch.rename_columns(out_schema.names)

    return pa.RecordBatchReader.from_batches(out_schema, batches())


class ReadBuilder:
    """pypaimon's ReadBuilder: with_projection, with_filter, with_limit, new_scan, new_read."""

    def __init__(self, table):
        self._request = _Request(table)

    def with_filter(self, predicate: Optional[Predicate]) -> "ReadBuilder":
        self._request.predicate = predicate
        return self

    def with_projection(self, projection: List[str]) -> "ReadBuilder":
        self._request.projection = list(projection)
        return self

    def with_limit(self, limit: int) -> "ReadBuilder":
        self._request.limit = limit
        return self

    def new_predicate_builder(self) -> PredicateBuilder:
        return PredicateBuilder(self._request.table._native)

    def new_scan(self) -> TableScan:
        return TableScan(self._request.native())

    def new_read(self) -> TableRead:
        return TableRead(self._request.native())

    def read_schema(self) -> pa.Schema:
        """The Arrow schema of what new_read() gives (the projected columns)."""
        return _arrow.schema_from_capsule(self._request.native().read_schema())


class StreamingTableScan:
    """Plans each new snapshot of the table as it commits (Sluice's StreamTableScan): the first
    plan by `scan.mode` (by default the latest snapshot in full), then one snapshot's changes
    per plan. With a consumer id, the progress is recorded once the plan before was handed on."""

    def __init__(self, native_scan, poll_interval_ms: int, record_progress: bool):
        self._scan = native_scan
        self._poll_interval_ms = poll_interval_ms
        self._record_progress = record_progress
        self._handed_on = False

    def _next(self) -> Optional[Plan]:
        """The next plan with splits, or None when the scan has nothing new (or ended)."""
        if self._handed_on and self._record_progress:
            self._scan.notify_checkpoint_complete(self._scan.checkpoint())
        self._handed_on = False
        while True:
            snapshot_id, splits, end = self._scan.plan()
            if snapshot_id is not None and splits:
                self._handed_on = True
                return Plan([Split(s) for s in splits], snapshot_id)
            if end:
                return None
            # A plan of nothing (a first plan that starts after a snapshot, as a resumed
            # consumer's does) is news only if the snapshot after it is there already.
            if snapshot_id is None and not self._scan.wait_for_next_snapshot(0):
                return None

    def stream_sync(self) -> Iterator[Plan]:
        """Plans forever (until `scan.bounded.watermark` ends the scan), waiting for snapshots."""
        while True:
            plan = self._next()
            if plan is not None:
                yield plan
                continue
            self._scan.wait_for_next_snapshot(self._poll_interval_ms)

    async def stream(self) -> AsyncIterator[Plan]:
        while True:
            plan = await asyncio.to_thread(self._next)
            if plan is not None:
                yield plan
                continue
            await asyncio.to_thread(self._scan.wait_for_next_snapshot, self._poll_interval_ms)

    def poll(self) -> Optional[Plan]:
        """The next plan if a snapshot is there to read, else None (no waiting)."""
        return self._next()

    def checkpoint(self) -> Optional[int]:
        """The next snapshot id to read; give it to restore() to resume there."""
        return self._scan.checkpoint()

    def restore(self, next_snapshot_id: Optional[int]) -> None:
        self._scan.restore(next_snapshot_id)


class StreamReadBuilder:
    """pypaimon's StreamReadBuilder over Sluice's streaming scan."""

    def __init__(self, table):
        self._request = _Request(table)
        self._poll_interval_ms = 1000
        self._include_row_kind = False

    def with_filter(self, predicate: Optional[Predicate]) -> "StreamReadBuilder":
        self._request.predicate = predicate
        return self

    def with_projection(self, projection: List[str]) -> "StreamReadBuilder":
        self._request.projection = list(projection)
        return self

    def with_poll_interval_ms(self, poll_interval_ms: int) -> "StreamReadBuilder":
        self._poll_interval_ms = poll_interval_ms
        return self

    def with_include_row_kind(self, include: bool = True) -> "StreamReadBuilder":
        """Give each row's kind (+I, -U, +U, -D) as a first column `_row_kind`."""
        self._include_row_kind = include
        return self

    def with_consumer_id(self, consumer_id: str) -> "StreamReadBuilder":
        """Record the progress in the table's consumer files (Java's `consumer-id`)."""
        self._request.options["consumer-id"] = consumer_id
        return self

    def with_option(self, key: str, value: str) -> "StreamReadBuilder":
        """A table option for this read, e.g. `scan.mode` = `latest` to start after the rows
        the table holds now."""
        self._request.options[key] = str(value)
        return self

    def new_predicate_builder(self) -> PredicateBuilder:
        return PredicateBuilder(self._request.table._native)

    def new_streaming_scan(self) -> StreamingTableScan:
        return StreamingTableScan(self._request.native("delta").stream_scan(),
                                  self._poll_interval_ms,
                                  "consumer-id" in self._request.options)

    def new_read(self) -> TableRead:
        return TableRead(self._request.native("delta"),
                         row_kind="_row_kind" if self._include_row_kind else None, delta=True)
