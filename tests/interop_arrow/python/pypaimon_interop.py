"""pypaimon against Sluice: reads the tables Sluice wrote, and writes tables for Sluice to read.

Usage: pypaimon_interop.py SLUICE_WAREHOUSE TABLE_LIST PYPAIMON_WAREHOUSE OUT_DIR
  - every `db.table` of TABLE_LIST (one a line) in SLUICE_WAREHOUSE is read with pypaimon into
    OUT_DIR/sluice_tables.jsonl;
  - tables of each kind pypaimon writes are created in PYPAIMON_WAREHOUSE (db `py`), written in
    several commits, read back with pypaimon into OUT_DIR/pypaimon_tables.jsonl.
Each line is {"table": ID, "schema": [[name, arrow type], ...], "rows": [[value, ...], ...]}
(values in canonical.py's form) or {"table": ID, "error": MESSAGE}.
"""

import decimal
import json
import os
import random
import sys

import pyarrow as pa
from pypaimon import CatalogFactory, Schema

import canonical


def read_table(catalog, identifier):
    table = catalog.get_table(identifier)
    builder = table.new_read_builder()
    splits = builder.new_scan().plan().splits()
    return builder.new_read().to_arrow(splits)


def record(identifier, make):
    try:
        result = make()
        return {"table": identifier, "schema": canonical.table_schema(result),
                "rows": canonical.table_rows(result)}
    except Exception as e:  # the C++ test reports it against the table
        return {"table": identifier, "error": "%s: %s" % (type(e).__name__, e)}


SCHEMA = pa.schema([
    pa.field("id", pa.int64(), nullable=False),
    pa.field("p", pa.int32(), nullable=False),
    ("b", pa.bool_()),
    ("i8", pa.int8()),
    ("i16", pa.int16()),
    ("i32", pa.int32()),
    ("f32", pa.float32()),
    ("f64", pa.float64()),
    ("dec", pa.decimal128(10, 2)),
    ("dec38", pa.decimal128(38, 8)),
    ("s", pa.string()),
    ("bin", pa.binary()),
    ("d", pa.date32()),
    ("ts3", pa.timestamp("ms")),
    ("ts6", pa.timestamp("us")),
    ("ltz", pa.timestamp("us", tz="UTC")),
    ("a", pa.list_(pa.int32())),
    ("m", pa.map_(pa.string(), pa.int64())),
    ("r", pa.struct([("x", pa.int32()), ("y", pa.string())])),
])


def batch(rng, ids, schema):
    def n(make):
        return None if rng.random() < 0.1 else make()

    element_nullable = schema.field("a").type.value_field.nullable

    def element():
        v = rng.randrange(-99, 99)
        return None if element_nullable and rng.random() < 0.1 else v

    cols = {
        "id": list(ids),
        "p": [i % 3 for i in ids],
        "b": [n(lambda: rng.random() < 0.5) for _ in ids],
        "i8": [n(lambda: rng.randrange(-128, 128)) for _ in ids],
        "i16": [n(lambda: rng.randrange(-32768, 32768)) for _ in ids],
        "i32": [n(lambda: rng.randrange(-2**31, 2**31)) for _ in ids],
        "f32": [n(lambda: rng.uniform(-1e3, 1e3)) for _ in ids],
        "f64": [n(lambda: rng.uniform(-1e9, 1e9)) for _ in ids],
        "dec": [n(lambda: decimal.Decimal(rng.randrange(-10**10 + 1, 10**10)).scaleb(-2))
                for _ in ids],
        "dec38": [n(lambda: decimal.Decimal(rng.randrange(-10**38 + 1, 10**38)).scaleb(-8))
                  for _ in ids],
        "s": [n(lambda: "s%d-%s" % (rng.randrange(1000), "é中" * rng.randrange(3))) for _ in ids],
        "bin": [n(lambda: rng.randbytes(rng.randrange(0, 8))) for _ in ids],
        "d": [n(lambda: rng.randrange(-30000, 60000)) for _ in ids],
        "ts3": [n(lambda: rng.randrange(-2 * 10**12, 7 * 10**12)) for _ in ids],
        "ts6": [n(lambda: rng.randrange(-2 * 10**15, 7 * 10**15)) for _ in ids],
        "ltz": [n(lambda: rng.randrange(-2 * 10**15, 7 * 10**15)) for _ in ids],
        "a": [n(lambda: [element() for _ in range(rng.randrange(4))]) for _ in ids],
        "m": [n(lambda: [("k%d" % k, n(lambda: rng.randrange(-10**12, 10**12)))
                         for k in range(rng.randrange(3))]) for _ in ids],
        "r": [n(lambda: {"x": n(lambda: rng.randrange(-99, 99)), "y": n(lambda: "y")})
              for _ in ids],
    }
    return pa.Table.from_arrays([pa.array(cols[f.name], type=f.type) for f in schema],
                                schema=schema)


# pypaimon's Avro writer has no MAP and no null array elements: its Avro tables leave the map
# out and hold ARRAY<INT NOT NULL>.
AVRO_SCHEMA = pa.schema(
    [f.with_type(pa.list_(pa.field("element", pa.int32(), nullable=False))) if f.name == "a" else f
     for f in SCHEMA if not pa.types.is_map(f.type)])


# The kinds of tables pypaimon writes: (name, primary keys, partition keys, options).
TABLES = [
    ("append_unaware_parquet", [], [], {"bucket": "-1", "file.format": "parquet"}),
    ("append_unaware_orc", [], [], {"bucket": "-1", "file.format": "orc"}),
    ("append_unaware_avro", [], [], {"bucket": "-1", "file.format": "avro"}),
    ("append_fixed_bucket", [], [], {"bucket": "3", "bucket-key": "id"}),
    ("append_partitioned", [], ["p"], {"bucket": "-1"}),
    ("pk_parquet", ["id"], [], {"bucket": "2", "file.format": "parquet"}),
    ("pk_orc", ["id"], [], {"bucket": "2", "file.format": "orc"}),
    ("pk_avro", ["id"], [], {"bucket": "2", "file.format": "avro"}),
    ("pk_partitioned", ["id", "p"], ["p"], {"bucket": "2"}),
    ("pk_first_row", ["id"], [], {"bucket": "1", "merge-engine": "first-row"}),
    ("pk_partial_update", ["id"], [], {"bucket": "1", "merge-engine": "partial-update"}),
    ("pk_dynamic_bucket", ["id"], [], {"bucket": "-1"}),
]


def write_tables(warehouse):
    catalog = CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database("py", True)
    rng = random.Random(7)
    out = []
    for name, primary_keys, partition_keys, options in TABLES:
        identifier = "py." + name

        def write():
            arrow_schema = AVRO_SCHEMA if options.get("file.format") == "avro" else SCHEMA
            schema = Schema.from_pyarrow_schema(arrow_schema, primary_keys=primary_keys or None,
                                                partition_keys=partition_keys or None,
                                                options=options)
            catalog.create_table(identifier, schema, False)
            table = catalog.get_table(identifier)
            # Three commits; on primary-key tables the later ones update earlier keys.
            for ids in [range(0, 300), range(200, 450), range(100, 150)]:
                builder = table.new_batch_write_builder()
                writer = builder.new_write()
                commit = builder.new_commit()
                writer.write_arrow(batch(rng, ids, arrow_schema))
                commit.commit(writer.prepare_commit())
                writer.close()
                commit.close()
            return read_table(catalog, identifier)

        out.append(record(identifier, write))
    return out


def main(sluice_warehouse, table_list, pypaimon_warehouse, out_dir):
    catalog = CatalogFactory.create({"warehouse": sluice_warehouse})
    with open(table_list) as f:
        identifiers = [line.strip() for line in f if line.strip()]
    with open(os.path.join(out_dir, "sluice_tables.jsonl"), "w") as out:
        for identifier in identifiers:
            out.write(json.dumps(record(identifier, lambda: read_table(catalog, identifier)),
                                 allow_nan=False) + "\n")
    with open(os.path.join(out_dir, "pypaimon_tables.jsonl"), "w") as out:
        for r in write_tables(pypaimon_warehouse):
            out.write(json.dumps(r, allow_nan=False) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:5])
