"""pyarrow as the consumer and producer of Sluice's Arrow C Data Interface (sluice/arrow.h).

Usage: arrow_c_interface.py SHIM READ_TABLE FIELD_IDS SNAPSHOT1_ROWS WRITE_TABLE

SHIM is the test-only C ABI over libsluice.so (tests/interop_arrow/shim/arrow_shim.cc), loaded
with ctypes. READ_TABLE is an append table Sluice wrote in two commits (SNAPSHOT1_ROWS rows in
the first) with every Paimon type of arrow_interop_test's AllTypes; FIELD_IDS a JSON object of
its columns' field ids. WRITE_TABLE is an empty append table of WRITE_COLUMNS' Paimon types.

Checks, one line each ("CHECK name ok" or "CHECK name FAIL: detail"), then
"SUMMARY checks=N failures=M"; exits 1 on any failure:
  - the stream's schema: Java paimon-arrow's Arrow type of every column, nullability, field ids;
  - its values equal what pyarrow reads from the table's own Parquet files (cast to the stream's
    types), for the latest snapshot, for snapshot 1, and for a projection with a filter;
  - pyarrow streams (sliced batches, columns in another order) written through the shim read
    back equal to what was written, also through pyarrow's reading of the files Sluice wrote;
  - a column of the wrong type and a failing producer are errors naming them, and commit nothing.
"""

import ctypes
import decimal
import glob
import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq


class ArrowArrayStream(ctypes.Structure):
    _fields_ = [("get_schema", ctypes.c_void_p), ("get_next", ctypes.c_void_p),
                ("get_last_error", ctypes.c_void_p), ("release", ctypes.c_void_p),
                ("private_data", ctypes.c_void_p)]


class Shim:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.lib.sluice_shim_read.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                              ctypes.c_int64, ctypes.POINTER(ArrowArrayStream),
                                              ctypes.c_char_p, ctypes.c_int]
        self.lib.sluice_shim_write.argtypes = [ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream),
                                               ctypes.c_char_p, ctypes.c_int]

    def read(self, table, columns="", where="", snapshot=0):
        stream = ArrowArrayStream()
        error = ctypes.create_string_buffer(4096)
        rc = self.lib.sluice_shim_read(table.encode(), columns.encode(), where.encode(), snapshot,
                                       ctypes.byref(stream), error, len(error))
        if rc != 0:
            raise RuntimeError(error.value.decode())
        return pa.RecordBatchReader._import_from_c(ctypes.addressof(stream)).read_all()

    def write(self, table, reader):
        """Returns None, or the error text."""
        stream = ArrowArrayStream()
        reader._export_to_c(ctypes.addressof(stream))
        error = ctypes.create_string_buffer(4096)
        rc = self.lib.sluice_shim_write(table.encode(), ctypes.byref(stream), error, len(error))
        return None if rc == 0 else error.value.decode()


def data_field(name, type_, nullable=True):
    return pa.field(name, type_, nullable)


def lst(element, nullable=True):
    return pa.list_(pa.field("$data$", element, nullable))


def mp(key, value, value_nullable=True):
    return pa.map_(pa.field("key", key, False), pa.field("value", value, value_nullable))


# Java paimon-arrow's Arrow type of each AllTypes column (ArrowFieldTypeConversion), and
# whether it is nullable. MULTISET, which Java does not map, as Parquet stores it.
READ_COLUMNS = [
    ("id", pa.int32(), False), ("b", pa.bool_(), True), ("i8", pa.int8(), True),
    ("i16", pa.int16(), True), ("i32", pa.int32(), True), ("i64", pa.int64(), True),
    ("i64_nn", pa.int64(), False), ("f32", pa.float32(), True), ("f64", pa.float64(), True),
    ("dec_1_0", pa.decimal128(1, 0), True), ("dec_5_2", pa.decimal128(5, 2), True),
    ("dec_9_9", pa.decimal128(9, 9), True), ("dec_10_3", pa.decimal128(10, 3), True),
    ("dec_18_6", pa.decimal128(18, 6), True), ("dec_19_2", pa.decimal128(19, 2), True),
    ("dec_28_10", pa.decimal128(28, 10), True), ("dec_38_0", pa.decimal128(38, 0), True),
    ("dec_38_18", pa.decimal128(38, 18), True), ("ch", pa.string(), True),
    ("vc", pa.string(), True), ("s", pa.string(), True), ("s_low", pa.string(), True),
    ("s_nn", pa.string(), False), ("bin", pa.binary(), True), ("vbin", pa.binary(), True),
    ("bytes", pa.binary(), True), ("d", pa.date32(), True), ("t0", pa.time32("ms"), True),
    ("t3", pa.time32("ms"), True), ("ts0", pa.timestamp("s"), True),
    ("ts1", pa.timestamp("ms"), True), ("ts3", pa.timestamp("ms"), True),
    ("ts4", pa.timestamp("us"), True), ("ts6", pa.timestamp("us"), True),
    ("ts7", pa.timestamp("ns"), True), ("ts9", pa.timestamp("ns"), True),
    ("ltz0", pa.timestamp("s", "UTC"), True), ("ltz3", pa.timestamp("ms", "UTC"), True),
    ("ltz6", pa.timestamp("us", "UTC"), True), ("ltz9", pa.timestamp("ns", "UTC"), True),
    ("a_i32", lst(pa.int32()), True), ("a_s_nn", lst(pa.string(), False), True),
    ("a_a_i64", lst(lst(pa.int64())), True), ("m_s_i32", mp(pa.string(), pa.int32()), True),
    ("m_i32_a_s", mp(pa.int32(), lst(pa.string())), True),
    ("ms", mp(pa.string(), pa.int32(), False), True),
    ("r", pa.struct([data_field("a", pa.int32()), data_field("b", pa.string()),
                     data_field("c", lst(pa.float64())),
                     data_field("d", pa.decimal128(20, 4))]), True),
    ("a_r", lst(pa.struct([data_field("x", pa.int64()),
                           data_field("y", pa.timestamp("us"))])), True),
    ("m_s_r", mp(pa.string(), pa.struct([data_field("p", pa.timestamp("ms", "UTC")),
                                         data_field("q", pa.binary())])), True),
    ("r_nn", pa.struct([data_field("k", pa.int32(), False), data_field("v", pa.date32())]),
     False),
]

# The Paimon columns of WRITE_TABLE (the C++ test creates it with these) and the pyarrow types
# the test writes them as: pyarrow's own defaults (list child "item", any timestamp unit).
WRITE_COLUMNS = [
    ("id", pa.int64(), False), ("b", pa.bool_(), True), ("i32", pa.int32(), True),
    ("dec", pa.decimal128(12, 3), True), ("dec38", pa.decimal128(38, 10), True),
    ("s", pa.string(), True), ("bin", pa.binary(), True), ("d", pa.date32(), True),
    ("t", pa.time32("ms"), True), ("ts", pa.timestamp("us"), True),
    ("ltz", pa.timestamp("ms", "UTC"), True), ("tsn", pa.timestamp("ns"), True),
    ("a", pa.list_(pa.string()), True), ("m", pa.map_(pa.string(), pa.float64()), True),
    ("r", pa.struct([("x", pa.int32()), ("y", pa.list_(pa.int64()))]), True),
]


def same(a, b):
    """Equality of Python values from to_pylist, with NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


class Checks:
    def __init__(self):
        self.count = 0
        self.failures = 0

    def check(self, name, ok, detail=""):
        self.count += 1
        if ok:
            print("CHECK %s ok" % name)
        else:
            self.failures += 1
            print("CHECK %s FAIL: %s" % (name, detail))

    def columns_equal(self, name, ours, theirs):
        """Each column of `ours` against the same column of `theirs` cast to its type."""
        if ours.num_rows != theirs.num_rows:
            self.check(name, False, "%d rows, expected %d" % (ours.num_rows, theirs.num_rows))
            return
        bad = []
        for field in ours.schema:
            try:
                expected = theirs.column(field.name).cast(field.type).combine_chunks()
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                bad.append("%s: cast failed: %s" % (field.name, e))
                continue
            actual = ours.column(field.name).combine_chunks()
            if actual.equals(expected):
                continue
            # Not equal as arrays, which NaN alone makes so: compare as Python values.
            actual, expected = actual.to_pylist(), expected.to_pylist()
            for row, (x, y) in enumerate(zip(actual, expected)):
                if not same(x, y):
                    bad.append("%s row %d: %r, expected %r" % (field.name, row, x, y))
                    break
        self.check(name, not bad, "; ".join(bad[:5]))


def sorted_by_id(table):
    return table.sort_by("id")


def parquet_files(table_dir):
    paths = sorted(glob.glob(os.path.join(table_dir, "bucket-*", "*.parquet")))
    return pa.concat_tables([pq.read_table(p) for p in paths], promote_options="permissive")


def check_read(shim, checks, table_dir, field_ids, snapshot1_rows):
    latest = shim.read(table_dir)
    schema_problems = []
    for (name, type_, nullable), field in zip(READ_COLUMNS, latest.schema):
        if field.name != name or not field.type.equals(type_) or field.nullable != nullable:
            schema_problems.append("%s: %s%s, expected %s %s%s" % (
                field.name, field.type, "" if field.nullable else " not null", name, type_,
                "" if nullable else " not null"))
        metadata = field.metadata or {}
        if metadata.get(b"PARQUET:field_id") != str(field_ids[name]).encode():
            schema_problems.append("%s: field id %r, expected %d" % (
                name, metadata.get(b"PARQUET:field_id"), field_ids[name]))
    if len(latest.schema) != len(READ_COLUMNS):
        schema_problems.append("%d columns, expected %d" % (len(latest.schema), len(READ_COLUMNS)))
    checks.check("read-schema", not schema_problems, "; ".join(schema_problems[:5]))

    files = sorted_by_id(parquet_files(table_dir))
    checks.columns_equal("read-latest-values", sorted_by_id(latest), files)

    first = sorted_by_id(shim.read(table_dir, snapshot=1))
    checks.columns_equal("read-snapshot-1-values", first,
                         files.filter(pa.compute.less(files["id"], snapshot1_rows)))

    projected = sorted_by_id(shim.read(table_dir, columns="s,id,m_s_r", where="id < 50"))
    checks.check("read-projection-schema", projected.column_names == ["s", "id", "m_s_r"],
                 str(projected.column_names))
    checks.columns_equal("read-projection-filter-values", projected,
                         files.filter(pa.compute.less(files["id"], 50)))


def write_batches():
    """Two pyarrow record batches of WRITE_COLUMNS with nulls at every level, as slices."""
    rows = 300
    columns = {
        "id": pa.array(range(rows), pa.int64()),
        "b": pa.array([None if i % 7 == 0 else i % 2 == 0 for i in range(rows)]),
        "i32": pa.array([None if i % 5 == 0 else i * 1000 - 7 for i in range(rows)], pa.int32()),
        "dec": pa.array([None if i % 6 == 0 else decimal.Decimal(i * 1234567 - 99).scaleb(-3)
                         for i in range(rows)], pa.decimal128(12, 3)),
        "dec38": pa.array([None if i % 4 == 0 else decimal.Decimal("%d.%010d" % (i * 10**15, i))
                           for i in range(rows)], pa.decimal128(38, 10)),
        "s": pa.array([None if i % 3 == 0 else "s%d-é" % i * (i % 4) for i in range(rows)]),
        "bin": pa.array([None if i % 8 == 0 else bytes([i % 256]) * (i % 5) for i in range(rows)]),
        "d": pa.array([None if i % 9 == 0 else i * 37 - 5000 for i in range(rows)], pa.int32())
        .cast(pa.date32()),
        "t": pa.array([None if i % 10 == 0 else i * 287_000 % 86_400_000 for i in range(rows)],
                      pa.int32()).cast(pa.time32("ms")),
        "ts": pa.array([None if i % 11 == 0 else i * 1_000_003_007 - 10**11 for i in range(rows)],
                       pa.int64()).cast(pa.timestamp("us")),
        "ltz": pa.array([None if i % 12 == 0 else i * 86_400_017 for i in range(rows)],
                        pa.int64()).cast(pa.timestamp("ms", "UTC")),
        "tsn": pa.array([None if i % 13 == 0 else i * 1_000_000_000_123 - 7 for i in range(rows)],
                        pa.int64()).cast(pa.timestamp("ns")),
        "a": pa.array([None if i % 4 == 1 else [None if j == 1 else "e%d" % j for j in range(i % 4)]
                       for i in range(rows)], pa.list_(pa.string())),
        "m": pa.array([None if i % 5 == 2 else [("k%d" % j, None if j == 2 else j / 3.0)
                                                for j in range(i % 4)] for i in range(rows)],
                      pa.map_(pa.string(), pa.float64())),
        "r": pa.array([None if i % 6 == 3 else {"x": None if i % 2 else i,
                                                 "y": None if i % 3 == 1 else list(range(i % 3))}
                       for i in range(rows)],
                      pa.struct([("x", pa.int32()), ("y", pa.list_(pa.int64()))])),
    }
    # Another order than the table's: the writer matches columns by name.
    names = list(reversed([name for name, _, _ in WRITE_COLUMNS]))
    schema = pa.schema([pa.field(name, columns[name].type, name != "id") for name in names])
    table = pa.table([columns[name] for name in names], schema=schema)
    # Slices: the arrays the batches export have offsets into their buffers.
    return schema, [table.slice(3, 150).to_batches()[0], table.slice(153, 147).to_batches()[0]]


def check_write(shim, checks, table_dir):
    schema, batches = write_batches()
    first = shim.write(table_dir, pa.RecordBatchReader.from_batches(schema, batches[:1]))
    checks.check("write-first-commit", first is None, first)
    second = shim.write(table_dir, pa.RecordBatchReader.from_batches(schema, batches[1:]))
    checks.check("write-second-commit", second is None, second)

    written = sorted_by_id(pa.Table.from_batches(batches))
    back = sorted_by_id(shim.read(table_dir))
    checks.check("write-read-back-schema", back.column_names == [n for n, _, _ in WRITE_COLUMNS],
                 str(back.column_names))
    checks.columns_equal("write-read-back-values", back, written)
    checks.columns_equal("write-parquet-files-values", back,
                         sorted_by_id(parquet_files(table_dir)))
    checks.columns_equal("write-snapshot-1-values", sorted_by_id(shim.read(table_dir, snapshot=1)),
                         sorted_by_id(pa.Table.from_batches(batches[:1])))

    # A column of another type: named; nothing committed.
    wrong = pa.table({"id": pa.array([1], pa.int64()), "i32": pa.array([1], pa.int64())})
    error = shim.write(table_dir, pa.RecordBatchReader.from_batches(wrong.schema,
                                                                    wrong.to_batches()))
    checks.check("write-wrong-type-is-named", error is not None and "'i32'" in error, error)

    # The producer fails after one batch: its message comes back; nothing committed.
    def failing():
        yield batches[0]
        raise ValueError("producer broke on purpose")

    error = shim.write(table_dir, pa.RecordBatchReader.from_batches(schema, failing()))
    checks.check("write-producer-failure-is-reported",
                 error is not None and "producer broke on purpose" in error, error)
    checks.check("write-errors-commit-nothing", shim.read(table_dir).num_rows == written.num_rows,
                 "rows after the failed writes: %d" % shim.read(table_dir).num_rows)


def main(shim_path, read_table, field_ids_path, snapshot1_rows, write_table):
    shim = Shim(shim_path)
    checks = Checks()
    with open(field_ids_path) as f:
        field_ids = json.load(f)
    check_read(shim, checks, read_table, field_ids, int(snapshot1_rows))
    check_write(shim, checks, write_table)
    print("SUMMARY checks=%d failures=%d" % (checks.count, checks.failures))
    sys.exit(1 if checks.failures else 0)


if __name__ == "__main__":
    main(*sys.argv[1:])
