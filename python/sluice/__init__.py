"""Sluice: Apache Paimon tables from Python, read and written by Sluice's native engine, with
pypaimon's API (CatalogFactory, Schema, read and write builders) and data in Arrow.

    import sluice
    catalog = sluice.CatalogFactory.create({'warehouse': '/tmp/warehouse'})
    table = catalog.get_table('db.orders')
    read_builder = table.new_read_builder()
    splits = read_builder.new_scan().plan().splits()
    arrow_table = read_builder.new_read().to_arrow(splits)

or, for one read: sluice.read_table('/tmp/warehouse', 'db.orders', snapshot=3).
"""

from typing import List, Optional

import pyarrow as pa

from . import _arrow, _native
from .catalog import Catalog, CatalogFactory
from .errors import (AlreadyExistsError, ConflictError, CorruptionError, InvalidArgumentError,
                     NotFoundError, NotSupportedError, OutOfRangeError, SluiceError,
                     SluiceIOError)
from .predicate import Predicate, PredicateBuilder
from .read import Plan, ReadBuilder, Split, StreamReadBuilder, TableRead, TableScan
from .schema import Schema
from .schema_change import SchemaChange
from .table import Table
from .write import (BATCH_COMMIT_IDENTIFIER, BatchWriteBuilder, CommitMessage,
                    StreamWriteBuilder)

__version__ = "0.1.0"


def read_table(warehouse: str, identifier: str, *, snapshot: Optional[int] = None,
               tag: Optional[str] = None, columns: Optional[List[str]] = None,
               where: Optional[str] = None, limit: Optional[int] = None) -> pa.Table:
    """The rows of table `db.table` of a warehouse as one Arrow table: at a snapshot id or tag
    (default the latest), of `columns` (default all), matching a where-expression such as
    `"qty > 10 AND region IN ('eu', 'us')"`, at most `limit` rows."""
    native_table = _native.Catalog(warehouse).get_table(identifier)
    builder = _native.ReadBuilder(native_table)
    if snapshot is not None:
        builder.with_snapshot(snapshot)
    if tag is not None:
        builder.with_tag(tag)
    if columns is not None:
        builder.with_projection(list(columns))
    if where is not None:
        builder.with_where(where)
    if limit is not None:
        builder.with_limit(limit)
    _, splits = builder.plan()
    return _arrow.reader_from_capsule(builder.read(splits)).read_all()


__all__ = [
    "AlreadyExistsError", "BATCH_COMMIT_IDENTIFIER", "BatchWriteBuilder", "Catalog",
    "CatalogFactory", "CommitMessage", "ConflictError", "CorruptionError",
    "InvalidArgumentError", "NotFoundError", "NotSupportedError", "OutOfRangeError", "Plan",
    "Predicate", "PredicateBuilder", "ReadBuilder", "Schema", "SchemaChange", "SluiceError",
    "SluiceIOError", "Split", "StreamReadBuilder", "StreamWriteBuilder", "Table", "TableRead",
    "TableScan", "read_table",
]
