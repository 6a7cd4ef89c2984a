"""Fixtures: a fresh warehouse and catalog per test, and pypaimon run in its own environment."""

import json
import os
import pathlib
import subprocess

import pyarrow as pa
import pytest

import sluice

REPO = pathlib.Path(__file__).resolve().parents[2]
SIDE = pathlib.Path(__file__).with_name("pypaimon_side.py")


@pytest.fixture
def warehouse(tmp_path):
    return str(tmp_path / "warehouse")


@pytest.fixture
def catalog(warehouse):
    catalog = sluice.CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database("db", True)
    return catalog


def write_ipc(path, table: pa.Table) -> str:
    with pa.OSFile(str(path), "wb") as f:
        with pa.ipc.new_file(f, table.schema) as w:
            w.write_table(table)
    return str(path)


class PyPaimon:
    """pypaimon_side.py, running with pypaimon's interpreter, and the commands sent to it."""

    def __init__(self, python):
        self.python = python
        self.process = subprocess.Popen([python, str(SIDE)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.tmp = None
        self.count = 0

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)

    def _file(self, name):
        self.count += 1
        return str(self.tmp / f"pypaimon-{self.count}-{name}.arrow")

    def run(self, **cmd):
        self.process.stdin.write(json.dumps(cmd) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"pypaimon exited during {cmd['op']}"
        answer = json.loads(line)
        if "error" in answer:
            raise AssertionError(f"pypaimon {cmd['op']} failed:\n{answer['error']}")

    def create_table(self, warehouse, table, schema: pa.Schema, **kw):
        self.run(op="create_table", warehouse=warehouse, table=table,
                 schema=write_ipc(self._file("schema"), schema.empty_table()), **kw)

    def write(self, warehouse, table, data: pa.Table, **kw):
        self.run(op="write", warehouse=warehouse, table=table,
                 data=write_ipc(self._file("data"), data), **kw)

    def read(self, warehouse, table, **kw) -> pa.Table:
        out = self._file("read")
        self.run(op="read", warehouse=warehouse, table=table, out=out, **kw)
        with pa.OSFile(out, "rb") as f:
            return pa.ipc.open_file(f).read_all()

    def create_tag(self, warehouse, table, tag, snapshot_id=None):
        self.run(op="create_tag", warehouse=warehouse, table=table, tag=tag,
                 snapshot_id=snapshot_id)


@pytest.fixture(scope="session")
def pypaimon_process():
    python = os.environ.get("SLUICE_PYPAIMON_PYTHON",
                            str(REPO / "build" / "pyenv" / "pypaimon" / "bin" / "python"))
    assert os.access(python, os.X_OK), f"pypaimon's environment is missing: {python}"
    process = PyPaimon(python)
    yield process
    process.close()


@pytest.fixture
def pypaimon(pypaimon_process, tmp_path):
    pypaimon_process.tmp = tmp_path
    return pypaimon_process


def rows(table: pa.Table, *keys):
    """A table's rows as dicts, sorted by `keys` (default `id`), for comparisons that ignore
    read order."""
    keys = keys or ("id",)
    return sorted(table.to_pylist(), key=lambda r: tuple(r[k] for k in keys))
