"""Writes Parquet and ORC files with pyarrow (Arrow C++'s writers), one per writer option, for
Sluice to read.

Usage: arrow_write.py OUT_DIR
Writes OUT_DIR/<name>.parquet and OUT_DIR/<name>.orc, then OUT_DIR/files.jsonl with one line per
file, {"file": PATH, "format": "parquet" | "orc", "options": TEXT, "dataset": NAME}, and
OUT_DIR/datasets.jsonl with one line per dataset, {"dataset": NAME, "schema": [...],
"rows": [...]} in canonical.py's form: the values each file holds.
"""

import decimal
import json
import os
import random
import sys

import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq

import canonical

ROWS = 1000
NULL_RATE = 0.1


def maybe_null(rng, make):
    return None if rng.random() < NULL_RATE else make()


def rand_text(rng, n):
    alphabet = "abcxyzABC019 _-é€中😀"
    return "".join(rng.choice(alphabet) for _ in range(n))


def rand_ts_nanos(rng):
    # 1900-01-01 .. 2200-01-01, inside the range of nanosecond timestamps.
    return rng.randrange(-2_208_988_800 * 10**9, 7_258_118_400 * 10**9)


def rand_decimal(rng, precision, scale):
    unscaled = rng.randrange(-(10**precision) + 1, 10**precision)
    return decimal.Decimal(unscaled).scaleb(-scale)


def edge_int(rng, bits):
    lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    return rng.choice([lo, hi, 0, -1, 1, rng.randrange(lo, hi + 1), rng.randrange(-100, 100)])


def rand_float(rng):
    return rng.choice([float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 5e-324,
                       rng.uniform(-1e6, 1e6), rng.uniform(-1, 1), float(rng.randrange(-50, 50))])


def column(rng, make, n=ROWS):
    return [maybe_null(rng, lambda: make(i)) for i in range(n)]


def make_table(seed):
    rng = random.Random(seed)
    low = ["red", "green", "blue", "", "violet"]
    struct_t = pa.struct([("a", pa.int32()), ("b", pa.string()), ("c", pa.list_(pa.float64()))])
    row_t = pa.struct([("x", pa.int64()), ("y", pa.string())])

    def rand_list(make, max_len=4):
        return [maybe_null(rng, make) for _ in range(rng.randrange(0, max_len + 1))]

    def rand_map(make_key, make_value, max_len=3):
        keys = []
        for _ in range(rng.randrange(0, max_len + 1)):
            k = make_key()
            if k not in keys:
                keys.append(k)
        return [(k, maybe_null(rng, make_value)) for k in keys]

    cols = {
        "b": (pa.bool_(), column(rng, lambda i: rng.random() < 0.5)),
        "i8": (pa.int8(), column(rng, lambda i: edge_int(rng, 8))),
        "i16": (pa.int16(), column(rng, lambda i: edge_int(rng, 16))),
        "i32": (pa.int32(), column(rng, lambda i: edge_int(rng, 32))),
        "i64": (pa.int64(), column(rng, lambda i: edge_int(rng, 64))),
        "i32_seq": (pa.int32(), column(rng, lambda i: 1000 + i * 3)),
        "f32": (pa.float32(), column(rng, lambda i: rand_float(rng))),
        "f64": (pa.float64(), column(rng, lambda i: rand_float(rng))),
        "dec_5_2": (pa.decimal128(5, 2), column(rng, lambda i: rand_decimal(rng, 5, 2))),
        "dec_18_4": (pa.decimal128(18, 4), column(rng, lambda i: rand_decimal(rng, 18, 4))),
        "dec_38_10": (pa.decimal128(38, 10), column(rng, lambda i: rand_decimal(rng, 38, 10))),
        "dec_10_0": (pa.decimal128(10, 0), column(rng, lambda i: rand_decimal(rng, 10, 0))),
        "s": (pa.string(), column(rng, lambda i: rand_text(rng, rng.randrange(0, 12)))),
        "s_low": (pa.string(), column(rng, lambda i: rng.choice(low))),
        "s_large": (pa.large_string(), column(rng, lambda i: rand_text(rng, rng.randrange(0, 30)))),
        "bin": (pa.binary(), column(rng, lambda i: rng.randbytes(rng.randrange(0, 10)))),
        "bin_fixed": (pa.binary(8), column(rng, lambda i: rng.randbytes(8))),
        "d": (pa.date32(), column(rng, lambda i: rng.randrange(-719162, 2932896))),
        "t_ms": (pa.time32("ms"), column(rng, lambda i: rng.randrange(0, 86_400_000))),
        "t_us": (pa.time64("us"), column(rng, lambda i: rng.randrange(0, 86_400_000) * 1000)),
        "ts_ms": (pa.timestamp("ms"), column(rng, lambda i: rand_ts_nanos(rng) // 10**6)),
        "ts_us": (pa.timestamp("us"), column(rng, lambda i: rand_ts_nanos(rng) // 10**3)),
        "ts_ns": (pa.timestamp("ns"), column(rng, lambda i: rand_ts_nanos(rng))),
        "ts_us_utc": (pa.timestamp("us", tz="UTC"),
                      column(rng, lambda i: rand_ts_nanos(rng) // 10**3)),
        "ts_ns_utc": (pa.timestamp("ns", tz="UTC"), column(rng, lambda i: rand_ts_nanos(rng))),
        "l_i32": (pa.list_(pa.int32()), column(rng, lambda i: rand_list(lambda: edge_int(rng, 32)))),
        "l_s": (pa.list_(pa.string()), column(rng, lambda i: rand_list(lambda: rng.choice(low)))),
        "ll_i64": (pa.list_(pa.list_(pa.int64())),
                   column(rng, lambda i: rand_list(lambda: rand_list(lambda: edge_int(rng, 64))))),
        "st": (struct_t, column(rng, lambda i: {
            "a": maybe_null(rng, lambda: edge_int(rng, 32)),
            "b": maybe_null(rng, lambda: rand_text(rng, 3)),
            "c": maybe_null(rng, lambda: rand_list(lambda: rng.uniform(-10, 10)))})),
        "m": (pa.map_(pa.string(), pa.int64()),
              column(rng, lambda i: rand_map(lambda: rand_text(rng, 2), lambda: edge_int(rng, 64)))),
        "m_l": (pa.map_(pa.int32(), pa.list_(pa.string())),
                column(rng, lambda i: rand_map(lambda: rng.randrange(0, 20),
                                               lambda: rand_list(lambda: rand_text(rng, 2))))),
        "l_st": (pa.list_(row_t), column(rng, lambda i: rand_list(lambda: {
            "x": maybe_null(rng, lambda: edge_int(rng, 64)),
            "y": maybe_null(rng, lambda: rng.choice(low))}))),
    }
    arrays = [pa.array(values, type=t) for t, values in cols.values()]
    return pa.Table.from_arrays(arrays, names=list(cols.keys()))


def leaf_columns(table):
    """(path, physical type) of every Parquet leaf column of `table`."""
    sink = pa.BufferOutputStream()
    pq.write_table(table.slice(0, 1), sink)
    schema = pq.ParquetFile(pa.BufferReader(sink.getvalue())).schema
    return [(schema.column(i).path, schema.column(i).physical_type)
            for i in range(len(schema))]


ENCODING_TYPES = {
    "DELTA_BINARY_PACKED": {"INT32", "INT64"},
    "DELTA_LENGTH_BYTE_ARRAY": {"BYTE_ARRAY"},
    "DELTA_BYTE_ARRAY": {"BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"},
    "BYTE_STREAM_SPLIT": {"FLOAT", "DOUBLE", "INT32", "INT64", "FIXED_LEN_BYTE_ARRAY"},
    "RLE": {"BOOLEAN"},
}


def parquet_configs(table):
    leaves = leaf_columns(table)
    configs = []
    for version in ["1.0", "2.0"]:
        for codec in ["NONE", "SNAPPY", "GZIP", "LZ4", "ZSTD", "BROTLI"]:
            configs.append(("codec_%s_page_v%s" % (codec.lower(), version[0]),
                            {"compression": codec, "data_page_version": version}))
        configs.append(("no_dictionary_page_v%s" % version[0],
                        {"use_dictionary": False, "data_page_version": version}))
        for encoding, physical in ENCODING_TYPES.items():
            chosen = {path: encoding for path, p in leaves if p in physical}
            configs.append(("encoding_%s_page_v%s" % (encoding.lower(), version[0]),
                            {"use_dictionary": False, "column_encoding": chosen,
                             "data_page_version": version}))
        configs.append(("small_pages_and_row_groups_page_v%s" % version[0],
                        {"data_page_size": 256, "row_group_size": 97, "write_batch_size": 31,
                         "dictionary_pagesize_limit": 256, "data_page_version": version}))
    configs += [
        ("no_statistics", {"write_statistics": False}),
        ("page_index_and_checksums", {"write_page_index": True, "write_page_checksum": True}),
        ("max_rows_per_page", {"max_rows_per_page": 50}),
        ("bloom_filters", {"bloom_filter_options": {"i64": {"ndv": 1000, "fpp": 0.05},
                                                    "s": {"ndv": 1000, "fpp": 0.05}}}),
        ("time_adjusted_to_utc", {"write_time_adjusted_to_utc": True}),
        ("int96_timestamps", {"use_deprecated_int96_timestamps": True}),
        ("format_version_1_0", {"version": "1.0", "coerce_timestamps": "us",
                                "allow_truncated_timestamps": True}),
        ("format_version_2_4", {"version": "2.4", "coerce_timestamps": "us",
                                "allow_truncated_timestamps": True}),
        ("decimal_as_integer", {"store_decimal_as_integer": True}),
        ("legacy_nested_names", {"use_compliant_nested_type": False}),
        ("byte_stream_split_option", {"use_byte_stream_split": [
            path for path, p in leaves if p in ENCODING_TYPES["BYTE_STREAM_SPLIT"]]}),
        ("content_defined_chunking", {"use_content_defined_chunking": True}),
        ("no_arrow_schema", {"store_schema": False}),
    ]
    return configs


def orc_configs():
    configs = []
    for codec in ["UNCOMPRESSED", "ZLIB", "SNAPPY", "LZ4", "ZSTD"]:
        configs.append(("codec_%s" % codec.lower(), {"compression": codec}))
    configs += [
        ("small_stripes", {"stripe_size": 4096, "batch_size": 64,
                           "row_index_stride": 100, "compression": "ZSTD"}),
        ("no_dictionary", {"dictionary_key_size_threshold": 0.0}),
        ("always_dictionary", {"dictionary_key_size_threshold": 1.0}),
        ("file_version_0_11", {"file_version": "0.11", "compression": "ZLIB"}),
        ("compression_strategy_compression", {"compression": "ZSTD",
                                              "compression_strategy": "compression"}),
        ("bloom_filters", {"bloom_filter_columns": [0, 3, 12], "row_index_stride": 200}),
    ]
    return configs


def without_time(table):
    """ORC has no time type, and Arrow's ORC writer no fixed-size binary."""
    keep = [f.name for f in table.schema
            if not pa.types.is_time(f.type) and not pa.types.is_fixed_size_binary(f.type)]
    return table.select(keep)


def nanos_as_micros(table):
    """Parquet formats before 2.6 have no nanosecond timestamps: coerced to microseconds."""
    fields = []
    for f in table.schema:
        if pa.types.is_timestamp(f.type) and f.type.unit == "ns":
            f = f.with_type(pa.timestamp("us", tz=f.type.tz))
        fields.append(f)
    return table.cast(pa.schema(fields), safe=False)


def main(out_dir):
    table = make_table(20261201)
    datasets = {"all_types": table, "orc_types": without_time(table),
                "all_types_micros": nanos_as_micros(table)}
    files = []
    for name, options in parquet_configs(table):
        path = os.path.join(out_dir, name + ".parquet")
        pq.write_table(table, path, **options)
        dataset = "all_types_micros" if "coerce_timestamps" in options else "all_types"
        files.append({"file": path, "format": "parquet", "options": json.dumps(options),
                      "dataset": dataset})
    for name, options in orc_configs():
        path = os.path.join(out_dir, name + ".orc")
        orc.write_table(datasets["orc_types"], path, **options)
        files.append({"file": path, "format": "orc", "options": json.dumps(options),
                      "dataset": "orc_types"})
    with open(os.path.join(out_dir, "files.jsonl"), "w") as out:
        for f in files:
            out.write(json.dumps(f) + "\n")
    with open(os.path.join(out_dir, "datasets.jsonl"), "w") as out:
        for name, t in datasets.items():
            out.write(json.dumps({"dataset": name, "schema": canonical.table_schema(t),
                                  "rows": canonical.table_rows(t)}, allow_nan=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
