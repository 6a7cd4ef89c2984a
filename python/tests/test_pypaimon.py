"""The same scenarios through pypaimon 2.1.0 (its own environment, a subprocess) and through
Sluice's package give the same rows: each writes what the other reads, both write into one
table, and both answer the same filters, projections, time travel and tags."""

import datetime
import decimal

import pyarrow as pa

import sluice
from conftest import rows

SCHEMA = pa.schema([
    ("id", pa.int64()),
    ("name", pa.string()),
    ("qty", pa.int32()),
    ("score", pa.float64()),
    ("price", pa.decimal128(12, 3)),
    ("day", pa.date32()),
    ("at", pa.timestamp("us")),
    ("ok", pa.bool_()),
    ("part", pa.string()),
])


def batch(ids, part="a", generation=0):
    n = len(ids)
    return pa.table({
        "id": pa.array(ids, pa.int64()),
        "name": [f"n{i}-{generation}" for i in ids],
        "qty": pa.array([(i * 3 + generation) % 11 for i in ids], pa.int32()),
        "score": [i / 8 + generation for i in ids],
        "price": pa.array([decimal.Decimal(i * 1001 + generation) / 1000 for i in ids],
                          pa.decimal128(12, 3)),
        "day": pa.array([datetime.date(2024, 2, 1) + datetime.timedelta(days=i % 30)
                         for i in ids], pa.date32()),
        "at": pa.array([datetime.datetime(2024, 2, 1, 12) + datetime.timedelta(seconds=i,
                                                                                microseconds=7)
                        for i in ids], pa.timestamp("us")),
        "ok": [i % 2 == 0 for i in ids],
        "part": [part] * n,
    }, schema=SCHEMA)


def sluice_commit(table, data):
    builder = table.new_batch_write_builder()
    write = builder.new_write()
    write.write_arrow(data)
    builder.new_commit().commit(write.prepare_commit())
    write.close()


def sluice_read(table, projection=None, predicate=None):
    builder = table.new_read_builder()
    if projection:
        builder.with_projection(projection)
    if predicate is not None:
        builder.with_filter(predicate)
    return builder.new_read().to_arrow(builder.new_scan().plan().splits())


def create(catalog, name, primary_keys=None):
    catalog.create_table(name, sluice.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=["part"], primary_keys=primary_keys,
        options={"bucket": "2"} if primary_keys else {}))
    return catalog.get_table(name)


def test_sluice_writes_pypaimon_reads(catalog, warehouse, pypaimon):
    table = create(catalog, "db.pk", primary_keys=["id", "part"])
    sluice_commit(table, batch(range(300), "a"))
    sluice_commit(table, batch(range(200, 400), "b"))
    sluice_commit(table, batch(range(0, 300, 3), "a", generation=1))  # upserts
    theirs = pypaimon.read(warehouse, "db.pk")
    ours = sluice_read(table)
    assert ours.num_rows == 500
    assert rows(theirs.select(SCHEMA.names), "name", "part") == rows(ours, "name", "part")


def test_pypaimon_writes_sluice_reads(catalog, warehouse, pypaimon):
    pypaimon.create_table(warehouse, "db.theirs", SCHEMA, partition_keys=["part"],
                          primary_keys=["id", "part"], options={"bucket": "3"})
    pypaimon.write(warehouse, "db.theirs", batch(range(250), "a"))
    pypaimon.write(warehouse, "db.theirs", batch(range(100, 150), "a", generation=2))
    table = catalog.get_table("db.theirs")
    assert table.primary_keys == ["id", "part"]
    ours = sluice_read(table)
    expected = {r["id"]: r for r in batch(range(250), "a").to_pylist()}
    expected.update({r["id"]: r for r in batch(range(100, 150), "a", generation=2).to_pylist()})
    assert rows(ours) == sorted(expected.values(), key=lambda r: r["id"])
    assert rows(pypaimon.read(warehouse, "db.theirs").select(SCHEMA.names)) == rows(ours)


def test_both_write_one_table(catalog, warehouse, pypaimon):
    table = create(catalog, "db.shared", primary_keys=["id", "part"])
    model = {}

    def expect(data):
        model.update({(r["id"], r["part"]): r for r in data.to_pylist()})

    for step in range(4):
        data = batch(range(step * 50, step * 50 + 120), "a" if step % 2 else "b", step)
        if step % 2:
            pypaimon.write(warehouse, "db.shared", data)
        else:
            sluice_commit(table, data)
        expect(data)
    want = sorted(model.values(), key=lambda r: (r["name"], r["part"]))
    assert rows(sluice_read(table), "name", "part") == want
    assert rows(pypaimon.read(warehouse, "db.shared").select(SCHEMA.names), "name", "part") == want


def test_append_table_and_overwrite_both_ways(catalog, warehouse, pypaimon):
    table = create(catalog, "db.log")
    sluice_commit(table, batch(range(100), "a"))
    pypaimon.write(warehouse, "db.log", batch(range(100, 150), "b"))
    pypaimon.write(warehouse, "db.log", batch(range(7), "a", 3), overwrite={"part": "a"})
    want = rows(pa.concat_tables([batch(range(7), "a", 3), batch(range(100, 150), "b")]))
    assert rows(sluice_read(table)) == want
    builder = table.new_batch_write_builder().overwrite({"part": "b"})
    write = builder.new_write()
    write.write_arrow(batch([999], "b"))
    builder.new_commit().commit(write.prepare_commit())
    want = rows(pa.concat_tables([batch(range(7), "a", 3), batch([999], "b")]))
    assert rows(pypaimon.read(warehouse, "db.log").select(SCHEMA.names)) == want
    assert rows(sluice_read(table)) == want


def test_same_filters_and_projections(catalog, warehouse, pypaimon):
    table = create(catalog, "db.f", primary_keys=["id", "part"])
    sluice_commit(table, batch(range(400), "a"))
    sluice_commit(table, batch(range(400, 600), "b"))
    pb = table.new_read_builder().new_predicate_builder()
    cases = [
        ([["equal", "id", 17]], pb.equal("id", 17)),
        ([["less_than", "qty", 3], ["equal", "part", "b"]],
         pb.and_predicates([pb.less_than("qty", 3), pb.equal("part", "b")])),
        ([["between", "id", 100, 150]], pb.between("id", 100, 150)),
        ([["is_in", "name", ["n5-0", "n450-0", "zz"]]], pb.is_in("name", ["n5-0", "n450-0", "zz"])),
        ([["greater_or_equal", "score", 70.5]], pb.greater_or_equal("score", 70.5)),
        ([["not_equal", "qty", 0], ["startswith", "name", "n1"]],
         pb.and_predicates([pb.not_equal("qty", 0), pb.startswith("name", "n1")])),
    ]
    for theirs_filter, ours_filter in cases:
        projection = ["name", "id", "qty"]
        theirs = pypaimon.read(warehouse, "db.f", projection=projection, filter=theirs_filter)
        ours = sluice_read(table, projection=projection, predicate=ours_filter)
        assert ours.schema.names == projection
        assert ours.num_rows > 0, theirs_filter
        assert rows(theirs) == rows(ours), theirs_filter


def test_time_travel_and_tags_across(catalog, warehouse, pypaimon):
    table = create(catalog, "db.tt", primary_keys=["id", "part"])
    sluice_commit(table, batch(range(10), "a"))
    pypaimon.write(warehouse, "db.tt", batch(range(5, 20), "a", 1))
    sluice_commit(table, batch(range(30, 40), "a", 2))
    table.create_tag("ours", snapshot_id=1)
    pypaimon.create_tag(warehouse, "db.tt", "theirs", snapshot_id=2)
    assert table.list_tags() == ["ours", "theirs"]
    for options in ({"scan.snapshot-id": "2"}, {"scan.tag-name": "ours"},
                    {"scan.tag-name": "theirs"}):
        theirs = pypaimon.read(warehouse, "db.tt", options=options)
        ours = sluice_read(table.copy(options))
        assert ours.num_rows in (10, 20)
        assert rows(theirs.select(SCHEMA.names)) == rows(ours), options
