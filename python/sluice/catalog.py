"""Catalogs by pypaimon's names: CatalogFactory.create({'warehouse': ..., 'metastore': ...})."""

from typing import Dict, List, Optional

import pyarrow as pa

from . import _arrow, _native
from .errors import InvalidArgumentError, NotFoundError, NotSupportedError
from .schema import Schema
from .schema_change import SchemaChange
from .table import Table


class Catalog:
    """The databases and tables of a catalog: a warehouse folder (`<warehouse>/<db>.db/<table>/`),
    or the JDBC or REST catalog CatalogFactory.create opens."""

    def __init__(self, warehouse):
        if isinstance(warehouse, _native.Catalog):
            self._native = warehouse
        else:
            self._native = _native.Catalog(warehouse)

    @property
    def warehouse(self) -> str:
        return self._native.warehouse

    def list_databases(self) -> List[str]:
        return self._native.list_databases()

    def list_tables(self, database_name: str) -> List[str]:
        return self._native.list_tables(database_name)

    def create_database(self, name: str, ignore_if_exists: bool = False,
                        properties: Optional[Dict[str, str]] = None) -> None:
        if properties:
            raise NotSupportedError(
                "database properties are not supported by the filesystem catalog (database "
                + name + ")")
        self._native.create_database(name, ignore_if_exists)

    def drop_database(self, name: str, ignore_if_not_exists: bool = False,
                      cascade: bool = False) -> None:
        self._native.drop_database(name, ignore_if_not_exists, cascade)

    def create_table(self, identifier: str, schema: Schema, ignore_if_exists: bool = False) -> None:
        self._native.create_table(
            str(identifier), schema.pa_schema.__arrow_c_schema__(), list(schema.partition_keys),
            list(schema.primary_keys), [(k, str(v)) for k, v in schema.options.items()],
            schema.comment, ignore_if_exists)

    def alter_table(self, identifier: str, changes: List[SchemaChange],
                    ignore_if_not_exists: bool = False) -> None:
        """Commits `changes` as the table's next schema, all or none."""
        if ignore_if_not_exists:
            try:
                self._native.get_table(str(identifier))
            except NotFoundError:
                return
        self._native.alter_table(str(identifier), [c._native() for c in changes])

    def get_table(self, identifier: str) -> Table:
        """`db.table`, or `db.table$branch_<name>`."""
        return Table(self, self._native.get_table(str(identifier)))

    def drop_table(self, identifier: str, ignore_if_not_exists: bool = False) -> None:
        self._native.drop_table(str(identifier), ignore_if_not_exists)

    def rename_table(self, source_identifier: str, target_identifier: str,
                     ignore_if_not_exists: bool = False) -> None:
        self._native.rename_table(str(source_identifier), str(target_identifier),
                                  ignore_if_not_exists)

    def read_system_table(self, identifier: str) -> pa.Table:
        """A system table (`db.t$snapshots`, `db.t$tags`, `db.t$files`, `db.t$audit_log`, ...,
        `sys.all_table_options`) with Java Paimon's columns."""
        return _arrow.reader_from_capsule(self._native.read_system_table(identifier)).read_all()

    def call_procedure(self, name: str, **args) -> List[str]:
        """Java Paimon's procedures by their names and argument names (create_tag,
        expire_snapshots, rollback_to, compact, ...); None arguments are left out. Returns the
        lines that say what it did."""
        return self._native.call_procedure(
            name, [(k, _argument_text(v)) for k, v in args.items() if v is not None])


def _argument_text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class CatalogFactory:
    @staticmethod
    def create(catalog_options: Dict[str, str]) -> Catalog:
        """A catalog from Java's and pypaimon's catalog options: `warehouse` (a folder, a file:
        URI or an object store's, s3://...), `metastore` = `filesystem` (the default), `jdbc`
        (`uri` = jdbc:sqlite:PATH, jdbc:postgresql://..., jdbc:mysql://...; `jdbc.user`,
        `jdbc.password`) or `rest` (`uri`, `token.provider` = bear, `token`), and the file
        system's options (s3.endpoint, ...)."""
        return Catalog(_native.Catalog.open({str(k): str(v) for k, v in catalog_options.items()}))
