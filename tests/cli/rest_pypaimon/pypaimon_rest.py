"""pypaimon's REST catalog against Sluice's REST catalog server (rest_pypaimon_test.cc).

    pypaimon_rest.py URI TOKEN share   reads sales.orders (Sluice wrote it), creates py.items,
                                       writes it, adds a column, renames it to py.items2
    pypaimon_rest.py URI TOKEN drop    reads py.items2 (Sluice wrote a row more), drops it and
                                       the database py
    pypaimon_rest.py URI BADTOKEN refused   lists databases with a token the server refuses

Prints one JSON object on its last line: what it saw.
"""

import json
import sys

import pyarrow as pa
from pypaimon import CatalogFactory, Schema
from pypaimon.schema.data_types import AtomicType
from pypaimon.schema.schema_change import SchemaChange


def read(catalog, name):
    table = catalog.get_table(name)
    builder = table.new_read_builder()
    result = builder.new_read().to_arrow(builder.new_scan().plan().splits())
    return sorted(result.to_pylist(), key=lambda row: row["id"])


def write(catalog, name, rows):
    table = catalog.get_table(name)
    builder = table.new_batch_write_builder()
    write_ = builder.new_write()
    write_.write_arrow(pa.Table.from_pylist(rows, schema=pa.schema(
        [("id", pa.int64()), ("v", pa.string())])))
    commit = builder.new_commit()
    commit.commit(write_.prepare_commit())
    write_.close()
    commit.close()


def main():
    uri, token, mode = sys.argv[1:4]
    options = {"metastore": "rest", "uri": uri, "token.provider": "bear", "token": token,
               "warehouse": "wh"}
    seen = {}
    if mode == "refused":
        # The client asks the server's config as it opens: that is the call refused.
        try:
            CatalogFactory.create(options).list_databases()
            seen["refused"] = False
        except Exception as e:  # noqa: BLE001 - the client's own exception type is the check
            seen["refused"] = True
            seen["error"] = type(e).__name__ + ": " + str(e)
        print(json.dumps(seen))
        return
    catalog = CatalogFactory.create(options)
    if mode == "share":
        seen["databases"] = catalog.list_databases()
        seen["orders"] = read(catalog, "sales.orders")
        catalog.create_database("py", False)
        schema = Schema.from_pyarrow_schema(
            pa.schema([("id", pa.int64()), ("v", pa.string())]), options={"bucket": "-1"})
        catalog.create_table("py.items", schema, False)
        write(catalog, "py.items", [{"id": 10, "v": "py"}])
        catalog.alter_table("py.items", [SchemaChange.add_column("note", AtomicType("STRING"))])
        catalog.rename_table("py.items", "py.items2")
        seen["py_tables"] = catalog.list_tables("py")
    elif mode == "drop":
        seen["items"] = read(catalog, "py.items2")
        catalog.drop_table("py.items2", False)
        catalog.drop_database("py", False)
        seen["databases"] = catalog.list_databases()
    print(json.dumps(seen, default=str))


if __name__ == "__main__":
    main()
