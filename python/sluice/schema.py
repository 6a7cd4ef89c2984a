"""A table to create, from a pyarrow schema (pypaimon's Schema.from_pyarrow_schema). Arrow types
map to Paimon's as Java's paimon-arrow maps them (sluice/arrow.h): string -> STRING, int64 ->
BIGINT, timestamp('us') -> TIMESTAMP(6), decimal128(p, s) -> DECIMAL(p, s), ...; primary-key
columns become NOT NULL unless `primary-key.nullable`."""

from typing import Dict, List, Optional

import pyarrow as pa


class Schema:
    def __init__(self, pa_schema: pa.Schema, partition_keys: Optional[List[str]] = None,
                 primary_keys: Optional[List[str]] = None, options: Optional[Dict] = None,
                 comment: Optional[str] = None):
        self.pa_schema = pa_schema
        self.partition_keys = list(partition_keys or [])
        self.primary_keys = list(primary_keys or [])
        self.options = dict(options or {})
        self.comment = comment

    @staticmethod
    def from_pyarrow_schema(pa_schema: pa.Schema, partition_keys: Optional[List[str]] = None,
                            primary_keys: Optional[List[str]] = None,
                            options: Optional[Dict] = None,
                            comment: Optional[str] = None) -> "Schema":
        return Schema(pa_schema, partition_keys, primary_keys, options, comment)
