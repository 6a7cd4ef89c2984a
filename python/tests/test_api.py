"""The package on its own: catalog, create, write, read with projection / filter / limit,
primary-key upserts, overwrite, time travel, tags, streaming, errors."""

import datetime
import decimal
import pickle

import pandas as pd
import pyarrow as pa
import pytest

import sluice
from conftest import rows

ORDERS = pa.schema([
    ("id", pa.int64()),
    ("region", pa.string()),
    ("qty", pa.int32()),
    ("price", pa.decimal128(10, 2)),
    ("day", pa.date32()),
    ("at", pa.timestamp("us")),
])


def orders(ids, region="eu", qty=None):
    n = len(ids)
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "region": pa.array([region] * n, pa.string()),
        "qty": pa.array(qty if qty is not None else [i % 7 for i in ids], pa.int32()),
        "price": pa.array([decimal.Decimal(i) / 4 for i in ids], pa.decimal128(10, 2)),
        "day": pa.array([datetime.date(2024, 1, 1 + i % 28) for i in ids], pa.date32()),
        "at": pa.array([datetime.datetime(2024, 1, 1, 0, 0, i % 60, i) for i in ids],
                       pa.timestamp("us")),
    }, schema=ORDERS)


def commit(table, data, overwrite=None):
    builder = table.new_batch_write_builder()
    if overwrite is not None:
        builder.overwrite(overwrite)
    write = builder.new_write()
    write.write_arrow(data)
    snapshots = builder.new_commit().commit(write.prepare_commit())
    write.close()
    return snapshots


def read(table, projection=None, predicate=None, limit=None):
    builder = table.new_read_builder()
    if projection is not None:
        builder.with_projection(projection)
    if predicate is not None:
        builder.with_filter(predicate)
    if limit is not None:
        builder.with_limit(limit)
    return builder.new_read().to_arrow(builder.new_scan().plan().splits())


@pytest.fixture
def pk_table(catalog):
    schema = sluice.Schema.from_pyarrow_schema(ORDERS, primary_keys=["id"],
                                               options={"bucket": "2"})
    catalog.create_table("db.orders", schema)
    return catalog.get_table("db.orders")


@pytest.fixture
def append_table(catalog):
    schema = sluice.Schema.from_pyarrow_schema(ORDERS, partition_keys=["region"])
    catalog.create_table("db.events", schema)
    return catalog.get_table("db.events")


def test_catalog_lists_and_describes(catalog, pk_table):
    assert catalog.list_databases() == ["db"]
    assert catalog.list_tables("db") == ["orders"]
    assert pk_table.identifier == "db.orders"
    assert pk_table.primary_keys == ["id"]
    assert pk_table.options["bucket"] == "2"
    schema = pk_table.arrow_schema
    assert schema.names == ORDERS.names
    assert schema.field("price").type == pa.decimal128(10, 2)
    assert not schema.field("id").nullable  # a primary key is NOT NULL, as in Java
    assert schema.field("at").type == pa.timestamp("us")


def test_write_then_read_round_trips_every_type(pk_table):
    data = orders(list(range(100)))
    assert commit(pk_table, data) == [1]
    result = read(pk_table)
    assert result.schema.names == ORDERS.names
    assert rows(result) == rows(data)


def test_primary_key_upserts_keep_the_latest_row(pk_table):
    commit(pk_table, orders(list(range(10)), region="eu"))
    commit(pk_table, orders([3, 4, 10], region="us", qty=[100, 101, 102]))
    result = {r["id"]: r for r in read(pk_table).to_pylist()}
    assert sorted(result) == list(range(11))
    assert result[3]["region"] == "us" and result[3]["qty"] == 100
    assert result[2]["region"] == "eu"


def test_row_kind_column_deletes(pk_table):
    commit(pk_table, orders(list(range(5))))
    deletes = orders([1, 3]).append_column("_ROW_KIND", pa.array(["-D", "-D"]))
    commit(pk_table, deletes)
    assert sorted(read(pk_table).column("id").to_pylist()) == [0, 2, 4]


def test_projection_filter_and_limit(pk_table):
    commit(pk_table, orders(list(range(200))))
    pb = pk_table.new_read_builder().new_predicate_builder()
    between = pb.between("id", 10, 19)
    result = read(pk_table, projection=["qty", "id"], predicate=between)
    assert result.schema.names == ["qty", "id"]
    assert sorted(result.column("id").to_pylist()) == list(range(10, 20))

    both = pb.and_predicates([pb.is_in("id", [1, 5, 150, 999]), pb.less_than("qty", 5)])
    expected = [i for i in (1, 5, 150) if i % 7 < 5]
    assert sorted(read(pk_table, predicate=both).column("id").to_pylist()) == expected

    either = pb.or_predicates([pb.equal("id", 7), pb.greater_or_equal("id", 198)])
    assert sorted(read(pk_table, predicate=either).column("id").to_pylist()) == [7, 198, 199]

    by_day = pb.equal("day", datetime.date(2024, 1, 3))
    assert sorted(read(pk_table, predicate=by_day).column("id").to_pylist()) == [
        i for i in range(200) if i % 28 == 2]
    by_price = pb.greater_than("price", decimal.Decimal("49.50"))
    assert sorted(read(pk_table, predicate=by_price).column("id").to_pylist()) == [199]
    by_time = pb.less_than("at", datetime.datetime(2024, 1, 1, 0, 0, 1))
    assert sorted(read(pk_table, predicate=by_time).column("id").to_pylist()) == [0, 60, 120,
                                                                                  180]
    assert read(pk_table, limit=5).num_rows <= 200
    limited = read(pk_table, limit=5)
    assert 5 <= limited.num_rows < 200


def test_string_predicates(append_table):
    data = pa.table({name: pa.nulls(3, ORDERS.field(name).type) for name in ORDERS.names})
    data = data.set_column(0, "id", pa.array([1, 2, 3], pa.int64()))
    data = data.set_column(1, "region", pa.array(["apple", "grape", "apricot"]))
    write = append_table.new_batch_write_builder()
    w = write.new_write()
    w.write_arrow(data)
    write.new_commit().commit(w.prepare_commit())
    pb = append_table.new_read_builder().new_predicate_builder()
    assert sorted(read(append_table, predicate=pb.startswith("region", "ap")).column(
        "id").to_pylist()) == [1, 3]
    assert read(append_table, predicate=pb.endswith("region", "ape")).column(
        "id").to_pylist() == [2]
    assert read(append_table, predicate=pb.contains("region", "ric")).column(
        "id").to_pylist() == [3]
    assert read(append_table, predicate=pb.is_null("qty")).num_rows == 3


def test_pandas_in_and_out(append_table):
    frame = orders(list(range(20)), region="us").to_pandas()
    write_builder = append_table.new_batch_write_builder()
    write = write_builder.new_write()
    write.write_pandas(frame)
    write_builder.new_commit().commit(write.prepare_commit())
    builder = append_table.new_read_builder()
    out = builder.new_read().to_pandas(builder.new_scan().plan().splits())
    assert isinstance(out, pd.DataFrame)
    assert sorted(out["id"].tolist()) == list(range(20))


def test_batch_reader_streams_batches(append_table):
    commit(append_table, orders(list(range(5000))))
    builder = append_table.new_read_builder()
    reader = builder.new_read().to_arrow_batch_reader(builder.new_scan().plan().splits())
    assert isinstance(reader, pa.RecordBatchReader)
    assert sum(batch.num_rows for batch in reader) == 5000


def test_overwrite_replaces_a_partition(append_table):
    commit(append_table, orders(list(range(10)), region="eu"))
    commit(append_table, orders(list(range(10, 20)), region="us"))
    commit(append_table, orders([100, 101], region="eu"), overwrite={"region": "eu"})
    result = read(append_table)
    assert sorted(result.column("id").to_pylist()) == list(range(10, 20)) + [100, 101]
    commit(append_table, orders([7], region="asia"), overwrite={})
    assert read(append_table).column("id").to_pylist() == [7]


def test_time_travel_by_snapshot_and_tag(pk_table):
    commit(pk_table, orders([1, 2]))
    commit(pk_table, orders([3]))
    pk_table.create_tag("first", snapshot_id=1)
    commit(pk_table, orders([4]))
    assert [s["id"] for s in pk_table.snapshots()] == [1, 2, 3]
    assert pk_table.latest_snapshot_id() == 3
    at2 = pk_table.copy({"scan.snapshot-id": "2"})
    assert sorted(read(at2).column("id").to_pylist()) == [1, 2, 3]
    at_tag = pk_table.copy({"scan.tag-name": "first"})
    assert sorted(read(at_tag).column("id").to_pylist()) == [1, 2]
    short = sluice.read_table(pk_table._catalog.warehouse, "db.orders", snapshot=2,
                              columns=["id"], where="id > 1")
    assert short.schema.names == ["id"] and sorted(short.column("id").to_pylist()) == [2, 3]
    by_tag = sluice.read_table(pk_table._catalog.warehouse, "db.orders", tag="first")
    assert by_tag.num_rows == 2


def test_tags_lifecycle(pk_table):
    commit(pk_table, orders([1]))
    commit(pk_table, orders([2]))
    pk_table.create_tag("a", snapshot_id=1)
    pk_table.create_tag("b")
    pk_table.create_tag("b", ignore_if_exists=True)
    assert pk_table.list_tags() == ["a", "b"]
    pk_table.rename_tag("a", "c")
    pk_table.replace_tag("b", snapshot_id=1)
    assert sorted(read(pk_table.copy({"scan.tag-name": "b"})).column("id").to_pylist()) == [1]
    assert pk_table.delete_tag("c") is True
    assert pk_table.delete_tag("c") is False
    assert pk_table.list_tags() == ["b"]
    with pytest.raises(sluice.AlreadyExistsError, match="b"):
        pk_table.create_tag("b")
    pk_table.rollback_to("b")
    assert read(pk_table).column("id").to_pylist() == [1]


def test_streaming_read_follows_commits(pk_table):
    commit(pk_table, orders([1, 2]))
    builder = pk_table.new_stream_read_builder().with_include_row_kind()
    scan = builder.new_streaming_scan()
    table_read = builder.new_read()
    plans = scan.stream_sync()
    first = table_read.to_arrow(next(plans).splits())
    assert first.schema.names[0] == "_row_kind"
    assert sorted(first.column("id").to_pylist()) == [1, 2]
    assert set(first.column("_row_kind").to_pylist()) == {"+I"}
    commit(pk_table, orders([3]))
    second = table_read.to_arrow(next(plans).splits())
    assert second.column("id").to_pylist() == [3]
    assert scan.poll() is None

    plain = pk_table.new_stream_read_builder().new_read()
    assert plain.to_arrow(pk_table.new_stream_read_builder().new_streaming_scan().poll()
                          .splits()).schema.names == ORDERS.names


def test_streaming_consumer_resumes(pk_table):
    commit(pk_table, orders([1]))
    builder = pk_table.new_stream_read_builder().with_consumer_id("reader")
    scan = builder.new_streaming_scan()
    assert scan.poll() is not None
    commit(pk_table, orders([2]))
    assert builder.new_read().to_arrow(scan.poll().splits()).column("id").to_pylist() == [2]
    assert scan.poll() is None  # records the progress past snapshot 2
    commit(pk_table, orders([3]))
    again = pk_table.new_stream_read_builder().with_consumer_id("reader")
    resumed = again.new_read().to_arrow(again.new_streaming_scan().poll().splits())
    assert resumed.column("id").to_pylist() == [3]


def test_stream_write_commits_in_rounds(pk_table):
    builder = pk_table.new_stream_write_builder()
    write = builder.new_write()
    commit_ = builder.new_commit()
    for round_ in range(3):
        write.write_arrow(orders([round_]))
        assert commit_.commit(write.prepare_commit(round_), round_) == [round_ + 1]
    assert commit_.commit([], 1) == []  # a replayed identifier is skipped
    write.close()
    assert sorted(read(pk_table).column("id").to_pylist()) == [0, 1, 2]


def test_splits_and_messages_pickle(pk_table):
    builder = pk_table.new_batch_write_builder()
    write = builder.new_write()
    write.write_arrow(orders(list(range(50))))
    messages = pickle.loads(pickle.dumps(write.prepare_commit()))
    assert builder.new_commit().commit(messages) == [1]
    read_builder = pk_table.new_read_builder()
    splits = read_builder.new_scan().plan().splits()
    assert sum(s.row_count for s in splits) == 50
    assert sorted(s.bucket for s in splits) == [0, 1]
    moved = pickle.loads(pickle.dumps(splits))
    assert read_builder.new_read().to_arrow(moved).num_rows == 50


def test_system_tables(catalog, pk_table):
    commit(pk_table, orders([1, 2]))
    snapshots = catalog.read_system_table("db.orders$snapshots")
    assert snapshots.column("snapshot_id").to_pylist() == [1]
    assert catalog.read_system_table("db.orders$options").num_rows >= 1


def test_errors_name_what_is_wrong(catalog, pk_table, warehouse):
    with pytest.raises(sluice.NotFoundError, match="db.missing"):
        catalog.get_table("db.missing")
    with pytest.raises(LookupError):
        catalog.get_table("db.missing")
    with pytest.raises(sluice.AlreadyExistsError, match="orders"):
        catalog.create_table("db.orders", sluice.Schema.from_pyarrow_schema(ORDERS))
    with pytest.raises(sluice.NotFoundError, match="nodb"):
        catalog.create_table("nodb.t", sluice.Schema.from_pyarrow_schema(ORDERS))
    with pytest.raises(sluice.InvalidArgumentError, match="nope"):
        catalog.create_table("db.bad", sluice.Schema.from_pyarrow_schema(
            ORDERS, primary_keys=["nope"]))

    pb = pk_table.new_read_builder().new_predicate_builder()
    with pytest.raises(sluice.InvalidArgumentError, match=r"db\.orders.*'colour'"):
        pb.equal("colour", "red")
    with pytest.raises(ValueError, match="qty"):
        pb.equal("qty", "many")
    with pytest.raises(sluice.InvalidArgumentError, match="colour"):
        read(pk_table, projection=["id", "colour"])

    write = pk_table.new_batch_write_builder().new_write()
    with pytest.raises(sluice.InvalidArgumentError, match="qty"):
        write.write_arrow(orders([1]).set_column(2, "qty", pa.array(["x"])))
    with pytest.raises(sluice.InvalidArgumentError, match="colour"):
        write.write_arrow(orders([1]).append_column("colour", pa.array(["red"])))
    with pytest.raises(TypeError, match="list"):
        write.write_arrow([1, 2])
    write.close()

    commit(pk_table, orders([1]))
    with pytest.raises(sluice.NotFoundError, match="9"):
        read(pk_table.copy({"scan.snapshot-id": "9"}))
    with pytest.raises(sluice.NotFoundError, match="db.nothing"):
        sluice.read_table(warehouse, "db.nothing")
    with pytest.raises(sluice.NotSupportedError, match="metastore=hive"):
        sluice.CatalogFactory.create({"warehouse": warehouse, "metastore": "hive"})
    with pytest.raises(sluice.InvalidArgumentError, match="uri"):
        sluice.CatalogFactory.create({"warehouse": warehouse, "metastore": "jdbc"})
    with pytest.raises(sluice.InvalidArgumentError, match="warehouse"):
        sluice.CatalogFactory.create({})


def test_jdbc_catalog_on_sqlite(tmp_path):
    # Java's JdbcCatalog layout in a SQLite file: the tables are the rows of paimon_tables, their
    # files in the warehouse; a second catalog on the same options sees what the first did.
    options = {"metastore": "jdbc", "uri": "jdbc:sqlite:" + str(tmp_path / "catalog.sqlite"),
               "warehouse": str(tmp_path / "warehouse"), "catalog-key": "py"}
    first = sluice.CatalogFactory.create(options)
    first.create_database("db")
    first.create_table("db.orders", sluice.Schema.from_pyarrow_schema(
        ORDERS, primary_keys=["id"], options={"bucket": "1"}))
    commit(first.get_table("db.orders"), orders([1, 2, 3]))
    second = sluice.CatalogFactory.create(options)
    assert second.list_databases() == ["db"]
    assert second.list_tables("db") == ["orders"]
    assert sorted(read(second.get_table("db.orders")).column("id").to_pylist()) == [1, 2, 3]
    second.rename_table("db.orders", "db.orders2")
    assert first.list_tables("db") == ["orders2"]
    with pytest.raises(sluice.NotFoundError, match="db.orders"):
        first.get_table("db.orders")
    # Another catalog key in the same database is another catalog.
    other = sluice.CatalogFactory.create({**options, "catalog-key": "other"})
    assert other.list_databases() == []


def test_catalog_ddl_and_procedures(catalog, pk_table):
    catalog.rename_table("db.orders", "db.orders2")
    assert catalog.list_tables("db") == ["orders2"]
    table = catalog.get_table("db.orders2")
    commit(table, orders([1, 2]))
    commit(table, orders([2, 3]))
    lines = catalog.call_procedure("expire_snapshots", table="db.orders2", retain_max=1,
                                   retain_min=1)
    assert lines
    assert [s["id"] for s in table.snapshots()] == [2]
    catalog.drop_table("db.orders2")
    catalog.drop_table("db.orders2", ignore_if_not_exists=True)
    with pytest.raises(sluice.NotFoundError, match="orders2"):
        catalog.drop_table("db.orders2")
    catalog.create_database("other")
    catalog.drop_database("other")
    assert catalog.list_databases() == ["db"]
    with pytest.raises(sluice.InvalidArgumentError, match="no_such_procedure"):
        catalog.call_procedure("no_such_procedure", table="db.x")


def test_compaction_through_the_write(pk_table):
    for ids in ([1, 2], [2, 3], [3, 4]):
        commit(pk_table, orders(ids))
    builder = pk_table.new_batch_write_builder()
    write = builder.new_write()
    write.compact(full=True)
    assert builder.new_commit().commit(write.prepare_commit()) == [4]
    write.close()
    assert pk_table.snapshots()[-1]["commit_kind"] == "COMPACT"
    splits = pk_table.new_read_builder().new_scan().plan().splits()
    assert sum(s.file_count for s in splits) == len(splits)  # one file per bucket
    assert sorted(read(pk_table).column("id").to_pylist()) == [1, 2, 3, 4]


def test_read_schema_and_rows_as_tuples(pk_table):
    commit(pk_table, orders([5, 6]))
    builder = pk_table.new_read_builder().with_projection(["id", "region"])
    assert builder.read_schema().names == ["id", "region"]
    tuples = builder.new_read().to_iterator(builder.new_scan().plan().splits())
    assert sorted(tuples) == [(5, "eu"), (6, "eu")]


def test_streaming_scan_async_and_restore(pk_table):
    import asyncio
    commit(pk_table, orders([1]))
    builder = pk_table.new_stream_read_builder()
    scan = builder.new_streaming_scan()

    async def first_two():
        plans = scan.stream()
        first = await plans.__anext__()
        commit(pk_table, orders([2]))
        second = await plans.__anext__()
        await plans.aclose()
        return first, second

    first, second = asyncio.run(first_two())
    assert builder.new_read().to_arrow(first.splits()).column("id").to_pylist() == [1]
    assert builder.new_read().to_arrow(second.splits()).column("id").to_pylist() == [2]
    assert scan.checkpoint() == 3
    again = builder.new_streaming_scan()
    again.restore(2)
    assert builder.new_read().to_arrow(again.poll().splits()).column("id").to_pylist() == [2]


def test_alter_table_and_read_old_files(catalog, append_table):
    commit(append_table, orders([1, 2]))
    SchemaChange = sluice.SchemaChange
    catalog.alter_table("db.events", [
        SchemaChange.add_column("note", pa.string(), comment="free text"),
        SchemaChange.rename_column("qty", "quantity"),
        SchemaChange.update_column_type("quantity", pa.int64()),
        SchemaChange.set_option("snapshot.num-retained.min", "3"),
    ])
    table = catalog.get_table("db.events")
    schema = table.arrow_schema
    assert schema.names == ["id", "region", "quantity", "price", "day", "at", "note"]
    assert schema.field("quantity").type == pa.int64()
    assert table.options["snapshot.num-retained.min"] == "3"
    old_rows = read(table, projection=["id", "quantity", "note"]).to_pylist()
    assert sorted(old_rows, key=lambda r: r["id"]) == [
        {"id": 1, "quantity": 1, "note": None}, {"id": 2, "quantity": 2, "note": None}]
    with pytest.raises(sluice.SluiceError, match="nope"):
        catalog.alter_table("db.events", [SchemaChange.drop_column("nope")])
    with pytest.raises(sluice.NotFoundError, match="db.gone"):
        catalog.alter_table("db.gone", [SchemaChange.remove_option("x")])
    catalog.alter_table("db.gone", [SchemaChange.remove_option("x")], ignore_if_not_exists=True)
