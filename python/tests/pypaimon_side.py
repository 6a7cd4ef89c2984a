"""The pypaimon side of the tests, run with pypaimon's own environment (its pyarrow is older than
the test environment's) and kept running for the whole session (starting pypaimon takes more
than a second): one JSON command per line on stdin, one JSON answer per line on stdout
({"ok": true} or {"error": traceback}); tables in and out as Arrow IPC files.

  create_table  warehouse, table, schema (IPC file of an empty table), primary_keys,
                partition_keys, options
  write         warehouse, table, data (IPC file), overwrite (a partition dict, optional)
  read          warehouse, table, out (IPC file), options (time travel), projection, filter
                ([method, field, literal...] leaves ANDed), limit
  create_tag    warehouse, table, tag, snapshot_id (optional)
"""

import json
import sys
import traceback

import pyarrow as pa
from pypaimon import CatalogFactory, Schema


def read_ipc(path):
    with pa.OSFile(path, "rb") as f:
        return pa.ipc.open_file(f).read_all()


def run(cmd):
    catalog = CatalogFactory.create({"warehouse": cmd["warehouse"]})
    op = cmd["op"]
    if op == "create_table":
        database = cmd["table"].split(".")[0]
        catalog.create_database(database, True)
        schema = Schema.from_pyarrow_schema(
            read_ipc(cmd["schema"]).schema, partition_keys=cmd.get("partition_keys"),
            primary_keys=cmd.get("primary_keys"), options=cmd.get("options"))
        catalog.create_table(cmd["table"], schema, False)
        return
    table = catalog.get_table(cmd["table"])
    if op == "write":
        builder = table.new_batch_write_builder()
        if "overwrite" in cmd:
            builder.overwrite(cmd["overwrite"])
        write = builder.new_write()
        write.write_arrow(read_ipc(cmd["data"]))
        commit = builder.new_commit()
        commit.commit(write.prepare_commit())
        write.close()
        commit.close()
    elif op == "read":
        if cmd.get("options"):
            table = table.copy(cmd["options"])
        builder = table.new_read_builder()
        # pypaimon's predicate builder knows the projected columns only: made before projecting.
        if cmd.get("filter"):
            pb = builder.new_predicate_builder()
            leaves = [getattr(pb, leaf[0])(*leaf[1:]) for leaf in cmd["filter"]]
            builder.with_filter(pb.and_predicates(leaves))
        if cmd.get("projection"):
            builder.with_projection(cmd["projection"])
        if cmd.get("limit") is not None:
            builder.with_limit(cmd["limit"])
        splits = builder.new_scan().plan().splits()
        result = builder.new_read().to_arrow(splits)
        with pa.OSFile(cmd["out"], "wb") as f:
            with pa.ipc.new_file(f, result.schema) as w:
                w.write_table(result)
    elif op == "create_tag":
        table.create_tag(cmd["tag"], snapshot_id=cmd.get("snapshot_id"))
    else:
        raise ValueError("unknown op " + op)


def main():
    for line in sys.stdin:
        try:
            run(json.loads(line))
            answer = {"ok": True}
        except Exception:
            answer = {"error": traceback.format_exc()}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
