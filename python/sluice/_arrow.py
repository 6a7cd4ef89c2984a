"""Arrow across the C Data Interface: the native module hands out and takes PyCapsules; pyarrow
imports and exports them through the Arrow PyCapsule protocol, without copying the buffers."""

import pyarrow as pa


class _Capsule:
    """Holds one capsule of the native module for pyarrow's protocol methods."""

    def __init__(self, capsule, kind):
        self._capsule = capsule
        self._kind = kind

    def __arrow_c_schema__(self):
        assert self._kind == "schema"
        return self._capsule

    def __arrow_c_stream__(self, requested_schema=None):
        assert self._kind == "stream"
        return self._capsule


def schema_from_capsule(capsule) -> pa.Schema:
    return pa.schema(_Capsule(capsule, "schema"))


def reader_from_capsule(capsule) -> pa.RecordBatchReader:
    return pa.RecordBatchReader.from_stream(_Capsule(capsule, "stream"))


# Rows per array a Table or RecordBatch is written in. Slicing is free in Arrow, and the library
# imports (copies) one array at a time: a table of many millions of rows in one chunk would be
# copied whole before a byte is written, and then copied again in the data-file writer's slices
# (a 10-million-row write takes a fifth less CPU in 64Ki-row arrays, bench/run.sh python).
WRITE_CHUNK_ROWS = 1 << 16


def stream_capsule(data):
    """The ArrowArrayStream capsule of a pyarrow Table, RecordBatch or RecordBatchReader (or
    any object speaking the stream protocol)."""
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    if isinstance(data, pa.Table):
        data = pa.RecordBatchReader.from_batches(
            data.schema, data.to_batches(max_chunksize=WRITE_CHUNK_ROWS))
    if not hasattr(data, "__arrow_c_stream__"):
        raise TypeError(
            "expected Arrow data (pyarrow Table, RecordBatch or RecordBatchReader), got "
            + type(data).__name__)
    return data.__arrow_c_stream__()
