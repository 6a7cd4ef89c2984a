"""paimon-rust's side of peers_scan_bench (issue 16): reads the table the C++ side wrote through
pypaimon-rust's table API (ReadBuilder, the native reader handing over Arrow batches), `runs`
times in one process, in batches of up to 65536 rows.

Usage: peers_scan_rust.py WAREHOUSE DATABASE TABLE RUNS. Each run reads the latest snapshot
twice: every column, then k, f1, f2, f3 only, folding every batch into count, sum(k) and the
bytes of the strings read (as the C++ and Java sides do). Prints per read "rust_scan run=I
columns=C rows=N sum_k=S bytes=B cpu=S wall=S" (cpu: the whole process, every native thread).
"""

import sys
import time

import pyarrow.compute as pc
from pypaimon_rust.datafusion import PaimonCatalog


# Batches of the C++ side's size (its default is 1024 rows): per batch, Python's own work costs
# about a fifth of the read at 1024 rows and nothing measurable at 65536, and that cost is the
# binding's, not paimon-rust's.
READ_OPTIONS = {"read.batch-size": "65536"}


def read(table, projection):
    builder = table.new_read_builder(READ_OPTIONS)
    if projection:
        builder = builder.with_projection(projection)
    splits = builder.new_scan().plan().splits()
    rows = sum_k = bytes_read = 0
    for batch in builder.new_read().read_arrow(splits):
        rows += batch.num_rows
        sum_k += pc.sum(batch.column(0), min_count=0).as_py() or 0
        for c in range(1, batch.num_columns):
            bytes_read += pc.sum(pc.binary_length(batch.column(c)), min_count=0).as_py() or 0
    return rows, sum_k, bytes_read


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: peers_scan_rust.py WAREHOUSE DATABASE TABLE RUNS")
    warehouse, database, name, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    table = PaimonCatalog({"warehouse": warehouse}).get_table((database, name))
    all_columns = len(table.schema().fields())
    for run in range(runs):
        for projection in ([], ["k", "f1", "f2", "f3"]):
            cpu0, wall0 = time.process_time(), time.perf_counter()
            rows, sum_k, bytes_read = read(table, projection)
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            columns = len(projection) or all_columns
            print(f"rust_scan run={run} columns={columns} rows={rows} sum_k={sum_k} "
                  f"bytes={bytes_read} cpu={cpu:.3f} wall={wall:.3f}", flush=True)


if __name__ == "__main__":
    main()
