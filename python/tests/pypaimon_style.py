"""Code written for pypaimon, as its documentation writes it. test_same_code.py runs it as it is
with pypaimon and, with its import changed to `sluice`, with Sluice; both print the same JSON.

usage: pypaimon_style.py WAREHOUSE
"""

import json
import sys

import pyarrow as pa
from pypaimon import CatalogFactory, Schema

catalog = CatalogFactory.create({'warehouse': sys.argv[1]})
catalog.create_database('shop', True)
pa_schema = pa.schema([
    ('id', pa.int64()),
    ('category', pa.string()),
    ('amount', pa.float64()),
    ('dt', pa.string()),
])
schema = Schema.from_pyarrow_schema(pa_schema, partition_keys=['dt'], primary_keys=['id', 'dt'],
                                    options={'bucket': '2'})
catalog.create_table('shop.sales', schema, False)
table = catalog.get_table('shop.sales')


def write(rows, overwrite=None):
    write_builder = table.new_batch_write_builder()
    if overwrite is not None:
        write_builder.overwrite(overwrite)
    table_write = write_builder.new_write()
    table_commit = write_builder.new_commit()
    table_write.write_arrow(pa.Table.from_pylist(rows, schema=pa_schema))
    table_commit.commit(table_write.prepare_commit())
    table_write.close()
    table_commit.close()


def read(t, projection=None, where=None, limit=None):
    read_builder = t.new_read_builder()
    if where is not None:
        predicate_builder = read_builder.new_predicate_builder()
        read_builder = read_builder.with_filter(where(predicate_builder))
    if projection is not None:
        read_builder = read_builder.with_projection(projection)
    if limit is not None:
        read_builder = read_builder.with_limit(limit)
    splits = read_builder.new_scan().plan().splits()
    result = read_builder.new_read().to_arrow(splits)
    return sorted(result.to_pylist(), key=lambda r: json.dumps(r, sort_keys=True))


write([{'id': i, 'category': 'c%d' % (i % 3), 'amount': i * 1.5, 'dt': '2024-01-0%d' % (1 + i % 2)}
       for i in range(20)])
write([{'id': i, 'category': 'updated', 'amount': -1.0, 'dt': '2024-01-01'}
       for i in range(0, 20, 4)])
write([{'id': 100, 'category': 'new', 'amount': 9.0, 'dt': '2024-01-02'}],
      overwrite={'dt': '2024-01-02'})

out = {
    'all': read(table),
    'projected_filtered': read(table, projection=['id', 'amount'], where=lambda pb: pb.and_predicates(
        [pb.equal('dt', '2024-01-01'), pb.greater_than('amount', 5.0)])),
    'in_or': read(table, where=lambda pb: pb.or_predicates(
        [pb.is_in('category', ['c1', 'new']), pb.between('id', 2, 4)])),
    'snapshot_1': read(table.copy({'scan.snapshot-id': '1'}), projection=['id']),
    'limited_rows': len(read(table, limit=1)) >= 1,
}
table.create_tag('v2', snapshot_id=2)
out['tag_v2'] = read(table.copy({'scan.tag-name': 'v2'}), projection=['id', 'category'])
pandas_frame = table.new_read_builder().new_read().to_pandas(
    table.new_read_builder().new_scan().plan().splits())
out['pandas_rows'] = len(pandas_frame)
print(json.dumps(out, sort_keys=True))
