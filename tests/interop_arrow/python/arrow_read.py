"""Reads Parquet and ORC files with pyarrow (Arrow C++'s readers) and prints their values.

Usage: arrow_read.py FILE_LIST OUT_JSONL
FILE_LIST has one path per line (.parquet or .orc). OUT_JSONL gets one line per file:
{"file": PATH, "schema": [[name, arrow type], ...], "rows": [[value, ...], ...]} with values in
canonical.py's form, or {"file": PATH, "error": MESSAGE} when pyarrow cannot read it.
"""

import json
import sys

import pyarrow.orc as orc
import pyarrow.parquet as pq

import canonical


def read(path):
    if path.endswith(".parquet"):
        return pq.read_table(path)
    if path.endswith(".orc"):
        return orc.read_table(path)
    raise ValueError("unknown file extension: " + path)


def main(file_list, out_path):
    with open(file_list) as f:
        paths = [line.strip() for line in f if line.strip()]
    with open(out_path, "w") as out:
        for path in paths:
            try:
                table = read(path)
                record = {"file": path, "schema": canonical.table_schema(table),
                          "rows": canonical.table_rows(table)}
            except Exception as e:  # the C++ test reports it against the file
                record = {"file": path, "error": "%s: %s" % (type(e).__name__, e)}
            out.write(json.dumps(record, allow_nan=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
