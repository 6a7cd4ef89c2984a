"""bench/run.sh python: reading a table to Arrow and writing it from Arrow through Sluice's
Python package, pypaimon and pypaimon-rust, on the same rows.

The driver (run with the package's environment) writes the rows with Sluice and with pypaimon
(each into a table of its own, from the same Arrow table), then reads the Sluice-written table
to a pyarrow Table with each of the three. The peers run as subprocesses of their own
environments (`peer` mode, this same file). Each process times only the operation, by its CPU
time (every thread of the process), best of --repeat; ratios are throughput over the peer's.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# numpy (under pyarrow and pandas in every process) starts OpenBLAS's thread pool, whose idle
# threads spin and are counted in the process CPU time: one thread, here and in every peer
# process (they inherit the environment), before numpy is imported.
os.environ["OPENBLAS_NUM_THREADS"] = "1"

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402

TABLE = "db.rows"


def make_rows(n: int) -> pa.Table:
    import numpy as np
    ids = np.arange(n, dtype=np.int64)
    rng = np.random.default_rng(15)
    return pa.table({
        "id": ids,
        "k": pa.array((ids % 1000).astype(np.int32)),
        "v": rng.random(n),
        "s": pc.cast(pa.array(ids % 100003), pa.string()),
        "day": pa.array((ids % 3650).astype(np.int32)).cast(pa.date32()),
    })


def timed(work, repeat: int):
    best = None
    for _ in range(repeat):
        # The previous run's result is freed before the clocks start: `out = work()` would free
        # it inside the timed region, charging one read for freeing another's table.
        out = None
        cpu, wall = time.process_time(), time.perf_counter()
        out = work()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if best is None or cpu < best[0]:
            best = (cpu, wall)
    return best[0], best[1], out


def summary(table: pa.Table) -> dict:
    return {"rows": table.num_rows, "id_sum": pc.sum(table.column("id")).as_py()}


def read_ipc(path: str) -> pa.Table:
    with pa.memory_map(path) as source:
        return pa.ipc.open_file(source).read_all()


# --- peers ------------------------------------------------------------------------------

def pypaimon_write(warehouse, data_path, repeat):
    from pypaimon import CatalogFactory, Schema
    data = read_ipc(data_path)
    catalog = CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database("db", True)
    count = [0]

    def write():
        count[0] += 1
        name = f"db.pypaimon_{count[0]}"
        catalog.create_table(name, Schema.from_pyarrow_schema(data.schema), False)
        builder = catalog.get_table(name).new_batch_write_builder()
        w = builder.new_write()
        w.write_arrow(data)
        builder.new_commit().commit(w.prepare_commit())
        w.close()

    cpu, wall, _ = timed(write, repeat)
    return {"cpu": cpu, "wall": wall}


def pypaimon_read(warehouse, repeat):
    from pypaimon import CatalogFactory
    table = CatalogFactory.create({"warehouse": warehouse}).get_table(TABLE)

    def read():
        builder = table.new_read_builder()
        return builder.new_read().to_arrow(builder.new_scan().plan().splits())

    cpu, wall, out = timed(read, repeat)
    return {"cpu": cpu, "wall": wall, **summary(out)}


def rust_read(warehouse, repeat):
    from pypaimon_rust.datafusion import PaimonCatalog
    table = PaimonCatalog({"warehouse": warehouse}).get_table(TABLE)

    def read():
        builder = table.new_read_builder()
        splits = builder.new_scan().plan().splits()
        return pa.Table.from_batches(list(builder.new_read().read_arrow(splits)))

    cpu, wall, out = timed(read, repeat)
    return {"cpu": cpu, "wall": wall, **summary(out)}


def peer(args):
    if args[0] == "pypaimon-write":
        result = pypaimon_write(args[1], args[2], int(args[3]))
    elif args[0] == "pypaimon-read":
        result = pypaimon_read(args[1], int(args[2]))
    elif args[0] == "rust-read":
        result = rust_read(args[1], int(args[2]))
    else:
        raise SystemExit("unknown peer operation " + args[0])
    print(json.dumps(result))


# --- driver -----------------------------------------------------------------------------

def run_peer(python, *args):
    done = subprocess.run([python, os.path.abspath(__file__), "peer", *map(str, args)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"peer {args[0]} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def driver():
    import sluice
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pypaimon-python", required=True)
    parser.add_argument("--rust-python", required=True)
    parser.add_argument("--dir", required=True)
    opts = parser.parse_args()

    data = make_rows(opts.rows)
    with tempfile.TemporaryDirectory(dir=opts.dir) as work:
        data_path = os.path.join(work, "rows.arrow")
        with pa.OSFile(data_path, "wb") as sink, pa.ipc.new_file(sink, data.schema) as w:
            w.write_table(data)
        warehouse = os.path.join(work, "warehouse")
        catalog = sluice.CatalogFactory.create({"warehouse": warehouse})
        catalog.create_database("db", True)
        count = [0]

        def sluice_write():
            count[0] += 1
            name = f"db.sluice_{count[0]}" if count[0] > 1 else TABLE
            catalog.create_table(name, sluice.Schema.from_pyarrow_schema(data.schema))
            builder = catalog.get_table(name).new_batch_write_builder()
            w = builder.new_write()
            w.write_arrow(data)
            builder.new_commit().commit(w.prepare_commit())
            w.close()

        ours_write = timed(sluice_write, opts.repeat)
        theirs_write = run_peer(opts.pypaimon_python, "pypaimon-write", warehouse, data_path,
                                opts.repeat)

        table = catalog.get_table(TABLE)

        def sluice_read():
            builder = table.new_read_builder()
            return builder.new_read().to_arrow(builder.new_scan().plan().splits())

        cpu, wall, out = timed(sluice_read, opts.repeat)
        ours_read = {"cpu": cpu, "wall": wall, **summary(out)}
        del out
        theirs_read = run_peer(opts.pypaimon_python, "pypaimon-read", warehouse, opts.repeat)
        rust = run_peer(opts.rust_python, "rust-read", warehouse, opts.repeat)

    want = summary(data)
    for name, result in (("sluice", ours_read), ("pypaimon", theirs_read),
                         ("pypaimon-rust", rust)):
        if {k: result[k] for k in want} != want:
            raise SystemExit(f"{name} read {result}, expected {want}")
        print(f"python: read {opts.rows} rows to Arrow, {name}: {result['cpu']:.2f} s CPU, "
              f"{result['wall']:.2f} s wall")
    print(f"python: write {opts.rows} rows from Arrow, sluice: {ours_write[0]:.2f} s CPU, "
          f"{ours_write[1]:.2f} s wall")
    print(f"python: write {opts.rows} rows from Arrow, pypaimon: {theirs_write['cpu']:.2f} s "
          f"CPU, {theirs_write['wall']:.2f} s wall")
    print(f"RESULT read_vs_pypaimon={theirs_read['cpu'] / ours_read['cpu']:.2f} "
          f"read_vs_pypaimon_rust={rust['cpu'] / ours_read['cpu']:.2f} "
          f"write_vs_pypaimon={theirs_write['cpu'] / ours_write[0]:.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "peer":
        peer(sys.argv[2:])
    else:
        driver()
