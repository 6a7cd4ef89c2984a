// The JSON of tables in Paimon's REST catalog API: Java's Schema (the `schema` of
// CreateTableRequest and GetTableResponse: fields, partitionKeys, primaryKeys, options, comment)
// and Java's SchemaChange (AlterTableRequest's `changes`: an object whose `action` names the
// change, "setOption", "addColumn", ..., with Jackson's field names). Types and fields are
// written as schema files hold them (types/data_type_json.h).
//
// Reading is strict: a missing or mistyped field is InvalidArgument naming its path in the
// request ("schema.fields[2].type"), so that a server answers 400 naming the field.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>
#include <vector>

#include "sluice/base/json_fwd.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"
#include "sluice/schema_change.h"

namespace sluice::rest {

// Java Schema of a stored table.
Json TableSchemaToRestJson(const TableSchema& schema);
// Java Schema of a table to create; `fields` carry Java's ids (MakeInitialSchema's).
Json NewTableToRestJson(const std::vector<DataField>& fields, const NewTableSpec& spec);
// The table to create from Java Schema JSON at `field`; the fields' ids are not kept (the
// catalog numbers them as Java does).
Result<NewTableSpec> NewTableFromRestJson(const Json& json, std::string_view field);

Json SchemaChangeToRestJson(const SchemaChange& change);
// NotSupported naming the action for Java changes Sluice does not apply
// (updateColumnDefaultValue, dropPrimaryKey).
Result<SchemaChange> SchemaChangeFromRestJson(const Json& json, std::string_view field);

}  // namespace sluice::rest
