"""The canonical JSON form of Arrow values that the interop test compares with Sluice's values.

Each value is rendered from its Arrow type alone, so that the C++ side can decode it with the
Paimon type of the column (interop_values.h, DecodeCanonical):

  null                     null
  bool                     true / false
  integers                 JSON integers
  float16/32/64            the exact double (a float32 widened) as float.hex() text
                           ("0x1.8p+1", "-0x0.0p+0", "inf", "-inf", "nan")
  decimal                  a string in plain notation with the type's scale ("-12.340")
  string                   a JSON string
  binary                   {"hex": "00ff"}
  date32 / date64          days since 1970-01-01
  time32 / time64          nanoseconds of the day
  timestamp (any unit/tz)  [epoch milliseconds (floored), nanoseconds within that millisecond]
                           since 1970-01-01 00:00:00 UTC, as Paimon's Timestamp holds it
  list                     an array of the elements
  struct                   an array of the field values in field order
  map                      an array of [key, value] pairs in stored order
"""

import pyarrow as pa

_NANOS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def _floats(values):
    return [None if v is None else float(v).hex() for v in values]


def _timestamps(arr, unit_nanos):
    out = []
    for v in arr.to_pylist():
        if v is None:
            out.append(None)
        else:
            millis, nanos = divmod(v * unit_nanos, 1_000_000)
            out.append([millis, nanos])
    return out


def _scaled_ints(arr, unit_nanos):
    return [None if v is None else v * unit_nanos for v in arr.to_pylist()]


def _decimal_text(d):
    return None if d is None else format(d, "f")


def array_values(arr):
    """The canonical values of one pyarrow Array (not chunked) as a Python list."""
    t = arr.type
    if pa.types.is_dictionary(t):
        return array_values(arr.dictionary_decode())
    if pa.types.is_timestamp(t):
        return _timestamps(arr.cast(pa.int64()), _NANOS[t.unit])
    if pa.types.is_time32(t):
        return _scaled_ints(arr.cast(pa.int32()), _NANOS[t.unit])
    if pa.types.is_time64(t):
        return _scaled_ints(arr.cast(pa.int64()), _NANOS[t.unit])
    if pa.types.is_date32(t):
        return arr.cast(pa.int32()).to_pylist()
    if pa.types.is_date64(t):
        return [None if v is None else v // 86_400_000 for v in arr.cast(pa.int64()).to_pylist()]
    if pa.types.is_floating(t):
        return _floats(arr.cast(pa.float64()).to_pylist())
    if pa.types.is_decimal(t):
        return [_decimal_text(d) for d in arr.to_pylist()]
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t)
            or pa.types.is_binary_view(t)):
        return [None if v is None else {"hex": v.hex()} for v in arr.to_pylist()]
    if pa.types.is_struct(t):
        valid = arr.is_valid().to_pylist()
        children = [array_values(c) for c in arr.flatten()]
        return [list(fields) if ok else None for ok, fields in zip(valid, zip(*children))] \
            if children else [[] if ok else None for ok in valid]
    if pa.types.is_map(t):
        offsets = arr.offsets.to_pylist()
        keys = array_values(arr.keys)
        items = array_values(arr.items)
        valid = arr.is_valid().to_pylist()
        return [[[keys[j], items[j]] for j in range(offsets[i], offsets[i + 1])] if valid[i]
                else None for i in range(len(arr))]
    if (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_list_view(t)
            or pa.types.is_large_list_view(t)):
        if pa.types.is_list_view(t) or pa.types.is_large_list_view(t):
            arr = arr.cast(pa.large_list(t.value_type))
        offsets = arr.offsets.to_pylist()
        values = array_values(arr.values)
        valid = arr.is_valid().to_pylist()
        return [values[offsets[i]:offsets[i + 1]] if valid[i] else None for i in range(len(arr))]
    if pa.types.is_fixed_size_list(t):
        return array_values(arr.cast(pa.list_(t.value_type)))
    return arr.to_pylist()


def column_values(column):
    """The canonical values of a ChunkedArray or Array."""
    if isinstance(column, pa.ChunkedArray):
        out = []
        for chunk in column.chunks:
            out.extend(array_values(chunk))
        return out
    return array_values(column)


def table_rows(table):
    """The rows of a pyarrow Table, each a list of canonical values in column order."""
    columns = [column_values(table.column(i)) for i in range(table.num_columns)]
    return [list(r) for r in zip(*columns)] if columns else []


def table_schema(table):
    return [[f.name, str(f.type)] for f in table.schema]
