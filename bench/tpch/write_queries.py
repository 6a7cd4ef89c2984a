"""Writes the 22 TPC-H queries of DuckDB's tpch extension as q01.sql ... q22.sql into argv[1].

The extension comes from the pinned PyPI package duckdb-extension-tpch and is loaded from its
file, so nothing is downloaded at run time.
"""
import os
import sys

import duckdb
import duckdb_extension_tpch

folder = os.path.join(os.path.dirname(duckdb_extension_tpch.__file__), "extensions",
                      "v" + duckdb.__version__, "tpch.duckdb_extension")
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
con = duckdb.connect()
con.sql(f"LOAD '{folder}'")
for number, query in con.sql("SELECT query_nr, query FROM tpch_queries()").fetchall():
    with open(os.path.join(out, f"q{number:02d}.sql"), "w") as f:
        f.write(query)
