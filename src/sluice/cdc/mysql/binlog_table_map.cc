#include "sluice/cdc/mysql/binlog_table_map.h"

#include <string>
#include <utility>

#include "sluice/cdc/mysql/binlog_cursor.h"

namespace sluice {

namespace {

using T = BinlogColumnType;

Status Corrupt(std::string_view context, const std::string& what) {
  return Status::Corruption("binlog " + std::string(context) + ": " + what);
}

// The optional metadata fields (MySQL's Table_map_event::Optional_metadata_field_type).
enum class OptionalField : uint8_t {
  kSignedness = 1,
  kDefaultCharset = 2,
  kColumnCharset = 3,
  kColumnName = 4,
  kSetStrValue = 5,
  kEnumStrValue = 6,
  kGeometryType = 7,
  kSimplePrimaryKey = 8,
  kPrimaryKeyWithPrefix = 9,
  kEnumAndSetDefaultCharset = 10,
  kEnumAndSetColumnCharset = 11,
  kColumnVisibility = 12,
};

// MySQL's and MariaDB's limit of columns per table.
constexpr uint64_t kMaxColumns = 4096;

// Bytes of a column type's metadata in the table map; -1 for a type Sluice does not know.
int MetadataWidth(T type) {
  switch (type) {
    case T::kFloat:
    case T::kDouble:
    case T::kBlob:
    case T::kTinyBlob:
    case T::kMediumBlob:
    case T::kLongBlob:
    case T::kBlobCompressed:
    case T::kGeometry:
    case T::kJson:
    case T::kTimestamp2:
    case T::kDateTime2:
    case T::kTime2:
      return 1;
    case T::kVarchar:
    case T::kVarString:
    case T::kVarcharCompressed:
    case T::kBit:
    case T::kNewDecimal:
    case T::kString:
    case T::kEnum:
    case T::kSet:
      return 2;
    case T::kDecimal:
    case T::kTiny:
    case T::kShort:
    case T::kLong:
    case T::kNull:
    case T::kTimestamp:
    case T::kLongLong:
    case T::kInt24:
    case T::kDate:
    case T::kTime:
    case T::kDateTime:
    case T::kYear:
    case T::kNewDate:
      return 0;
  }
  return -1;
}

// The columns each list of the optional metadata covers, in column order: MySQL's
// is_numeric_type / is_character_type on the real type; MariaDB's columns with a signedness /
// a charset (BinlogFlavor).
bool IsNumeric(const BinlogColumn& c, BinlogFlavor flavor) {
  switch (c.real_type) {
    case T::kYear:
      return flavor == BinlogFlavor::kMariaDb;
    case T::kTiny:
    case T::kShort:
    case T::kInt24:
    case T::kLong:
    case T::kLongLong:
    case T::kFloat:
    case T::kDouble:
    case T::kNewDecimal:
      return true;
    default:
      return false;
  }
}
bool IsCharacter(const BinlogColumn& c, BinlogFlavor flavor) {
  switch (c.real_type) {
    case T::kGeometry:
      return flavor == BinlogFlavor::kMariaDb;
    case T::kString:
    case T::kVarString:
    case T::kVarchar:
    case T::kBlob:
    case T::kVarcharCompressed:
    case T::kBlobCompressed:
      return true;
    default:
      return false;
  }
}
bool IsEnumOrSet(const BinlogColumn& c) {
  return c.real_type == T::kEnum || c.real_type == T::kSet;
}

// Sets the metadata of `column` (type already set) from the metadata block.
bool ReadColumnMetadata(BinlogCursor* in, BinlogColumn* column) {
  column->real_type = column->type;
  uint8_t b0 = 0, b1 = 0;
  switch (MetadataWidth(column->type)) {
    case 0:
      return true;
    case 1:
      if (!in->ReadU8(&b0)) return false;
      column->meta = b0;
      return true;
    case 2:
      if (!in->ReadU8(&b0) || !in->ReadU8(&b1)) return false;
      break;
    default:
      return false;
  }
  switch (column->type) {
    case T::kVarchar:
    case T::kVarString:
    case T::kVarcharCompressed:
    case T::kBit:
      column->meta = static_cast<uint16_t>(b0 | b1 << 8);
      return true;
    case T::kString:
    case T::kEnum:
    case T::kSet:
      column->meta = static_cast<uint16_t>(b0 << 8 | b1);
      // A CHAR longer than 255 bytes keeps the length's bits 8 and 9 in the real type's byte,
      // inverted, where the real type has both bits set (MySQL bug #37426).
      if ((b0 & 0x30) != 0x30) {
        column->real_type = static_cast<T>(b0 | 0x30);
        column->length = b1 | (((b0 & 0x30) ^ 0x30) << 4);
      } else {
        column->real_type = static_cast<T>(b0);
        column->length = b1;
      }
      if (column->real_type != T::kString && column->real_type != T::kEnum &&
          column->real_type != T::kSet) {
        column->real_type = column->type;
      }
      return true;
    default:  // kNewDecimal: precision, then scale
      column->meta = static_cast<uint16_t>(b0 << 8 | b1);
      return true;
  }
}

// The columns of `table` a list covers.
template <typename Pred>
std::vector<BinlogColumn*> ColumnsWhere(BinlogTableMap* table, Pred pred) {
  std::vector<BinlogColumn*> out;
  for (BinlogColumn& c : table->columns) {
    if (pred(c)) out.push_back(&c);
  }
  return out;
}

// DEFAULT_CHARSET form: the default collation, then (index among `columns`, collation) pairs
// for the columns that differ; COLUMN_CHARSET form: one collation per column.
Status ReadCharsets(std::string_view value, bool default_form, std::vector<BinlogColumn*> columns,
                    std::string_view context, std::string_view field) {
  BinlogCursor in(value);
  if (default_form) {
    uint64_t collation;
    if (!in.ReadPacked(&collation)) return Corrupt(context, std::string(field) + " is truncated");
    for (BinlogColumn* c : columns) c->collation = static_cast<uint32_t>(collation);
    while (in.remaining() > 0) {
      uint64_t index;
      if (!in.ReadPacked(&index) || !in.ReadPacked(&collation)) {
        return Corrupt(context, std::string(field) + " is truncated");
      }
      if (index >= columns.size()) {
        return Corrupt(context, std::string(field) + " names column " + std::to_string(index) +
                                    " of " + std::to_string(columns.size()));
      }
      columns[index]->collation = static_cast<uint32_t>(collation);
    }
    return Status::OK();
  }
  for (BinlogColumn* c : columns) {
    uint64_t collation;
    if (!in.ReadPacked(&collation)) {
      return Corrupt(context, std::string(field) + " has fewer collations than the " +
                                  std::to_string(columns.size()) + " columns it covers");
    }
    c->collation = static_cast<uint32_t>(collation);
  }
  if (in.remaining() > 0) {
    return Corrupt(context, std::string(field) + " has more collations than the " +
                                std::to_string(columns.size()) + " columns it covers");
  }
  return Status::OK();
}

Status ReadMembers(std::string_view value, std::vector<BinlogColumn*> columns,
                   std::string_view context, std::string_view field) {
  BinlogCursor in(value);
  for (BinlogColumn* c : columns) {
    uint64_t count;
    // Each member takes at least its length byte.
    if (!in.ReadPacked(&count) || count > in.remaining()) {
      return Corrupt(context, std::string(field) + " is truncated");
    }
    std::vector<std::string> members;
    members.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
      std::string_view member;
      if (!in.ReadPackedBytes(&member)) {
        return Corrupt(context, std::string(field) + " is truncated");
      }
      members.emplace_back(member);
    }
    c->members = std::move(members);
  }
  if (in.remaining() > 0) {
    return Corrupt(context, std::string(field) + " lists more columns than the " +
                                std::to_string(columns.size()) + " it covers");
  }
  return Status::OK();
}

// A bitmap, most significant bit first, one bit per column of `columns`.
Status ReadBitmap(std::string_view value, const std::vector<BinlogColumn*>& columns,
                  std::string_view context, std::string_view field,
                  std::optional<bool> BinlogColumn::*member) {
  if (value.size() != (columns.size() + 7) / 8) {
    return Corrupt(context, std::string(field) + " has " + std::to_string(value.size()) +
                                " bytes for " + std::to_string(columns.size()) + " columns");
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    columns[i]->*member = ((static_cast<uint8_t>(value[i / 8]) << (i % 8)) & 0x80) != 0;
  }
  return Status::OK();
}

Status ReadOptionalMetadata(std::string_view block, BinlogFlavor flavor, BinlogTableMap* table,
                            std::string_view context) {
  const auto numeric = [flavor](const BinlogColumn& c) { return IsNumeric(c, flavor); };
  const auto character = [flavor](const BinlogColumn& c) { return IsCharacter(c, flavor); };
  BinlogCursor in(block);
  while (in.remaining() > 0) {
    uint8_t type;
    std::string_view value;
    if (!in.ReadU8(&type) || !in.ReadPackedBytes(&value)) {
      return Corrupt(context,
                     "the optional metadata is truncated at byte " + std::to_string(in.offset()));
    }
    BinlogCursor v(value);
    switch (static_cast<OptionalField>(type)) {
      case OptionalField::kSignedness: {
        Status st = ReadBitmap(value, ColumnsWhere(table, numeric), context, "SIGNEDNESS",
                               &BinlogColumn::is_unsigned);
        if (!st.ok()) return st;
        break;
      }
      case OptionalField::kDefaultCharset:
      case OptionalField::kColumnCharset: {
        const bool default_form = type == static_cast<uint8_t>(OptionalField::kDefaultCharset);
        Status st = ReadCharsets(value, default_form, ColumnsWhere(table, character), context,
                                 default_form ? "DEFAULT_CHARSET" : "COLUMN_CHARSET");
        if (!st.ok()) return st;
        break;
      }
      case OptionalField::kEnumAndSetDefaultCharset:
      case OptionalField::kEnumAndSetColumnCharset: {
        const bool default_form =
            type == static_cast<uint8_t>(OptionalField::kEnumAndSetDefaultCharset);
        Status st = ReadCharsets(
            value, default_form, ColumnsWhere(table, IsEnumOrSet), context,
            default_form ? "ENUM_AND_SET_DEFAULT_CHARSET" : "ENUM_AND_SET_COLUMN_CHARSET");
        if (!st.ok()) return st;
        break;
      }
      case OptionalField::kColumnName:
        for (BinlogColumn& c : table->columns) {
          std::string_view name;
          if (!v.ReadPackedBytes(&name)) return Corrupt(context, "COLUMN_NAME is truncated");
          c.name = std::string(name);
        }
        if (v.remaining() > 0) {
          return Corrupt(context, "COLUMN_NAME has more names than the " +
                                      std::to_string(table->columns.size()) + " columns");
        }
        break;
      case OptionalField::kSetStrValue:
      case OptionalField::kEnumStrValue: {
        const T kind =
            type == static_cast<uint8_t>(OptionalField::kSetStrValue) ? T::kSet : T::kEnum;
        Status st = ReadMembers(
            value,
            ColumnsWhere(table, [kind](const BinlogColumn& c) { return c.real_type == kind; }),
            context, kind == T::kSet ? "SET_STR_VALUE" : "ENUM_STR_VALUE");
        if (!st.ok()) return st;
        break;
      }
      case OptionalField::kGeometryType:
        for (BinlogColumn* c :
             ColumnsWhere(table, [](const BinlogColumn& c) { return c.type == T::kGeometry; })) {
          uint64_t geometry;
          if (!v.ReadPacked(&geometry)) return Corrupt(context, "GEOMETRY_TYPE is truncated");
          c->geometry_type = static_cast<uint32_t>(geometry);
        }
        break;
      case OptionalField::kSimplePrimaryKey:
      case OptionalField::kPrimaryKeyWithPrefix: {
        const bool with_prefix = type == static_cast<uint8_t>(OptionalField::kPrimaryKeyWithPrefix);
        while (v.remaining() > 0) {
          uint64_t index, prefix;
          if (!v.ReadPacked(&index) || (with_prefix && !v.ReadPacked(&prefix))) {
            return Corrupt(context, "the primary key metadata is truncated");
          }
          if (index >= table->columns.size()) {
            return Corrupt(context, "the primary key names column " + std::to_string(index) +
                                        " of " + std::to_string(table->columns.size()));
          }
          table->primary_key.push_back(static_cast<uint32_t>(index));
        }
        break;
      }
      case OptionalField::kColumnVisibility: {
        std::vector<BinlogColumn*> all =
            ColumnsWhere(table, [](const BinlogColumn&) { return true; });
        Status st = ReadBitmap(value, all, context, "COLUMN_VISIBILITY", &BinlogColumn::visible);
        if (!st.ok()) return st;
        break;
      }
      default:
        // A field of a later server: its length lets it be skipped.
        break;
    }
  }
  return Status::OK();
}

}  // namespace

std::string BinlogColumnTypeName(BinlogColumnType type) {
  switch (type) {
    case T::kDecimal:
      return "DECIMAL";
    case T::kTiny:
      return "TINY";
    case T::kShort:
      return "SHORT";
    case T::kLong:
      return "LONG";
    case T::kFloat:
      return "FLOAT";
    case T::kDouble:
      return "DOUBLE";
    case T::kNull:
      return "NULL";
    case T::kTimestamp:
      return "TIMESTAMP";
    case T::kLongLong:
      return "LONGLONG";
    case T::kInt24:
      return "INT24";
    case T::kDate:
      return "DATE";
    case T::kTime:
      return "TIME";
    case T::kDateTime:
      return "DATETIME";
    case T::kYear:
      return "YEAR";
    case T::kNewDate:
      return "NEWDATE";
    case T::kVarchar:
      return "VARCHAR";
    case T::kBit:
      return "BIT";
    case T::kTimestamp2:
      return "TIMESTAMP2";
    case T::kDateTime2:
      return "DATETIME2";
    case T::kTime2:
      return "TIME2";
    case T::kVarcharCompressed:
      return "VARCHAR_COMPRESSED";
    case T::kBlobCompressed:
      return "BLOB_COMPRESSED";
    case T::kJson:
      return "JSON";
    case T::kNewDecimal:
      return "NEWDECIMAL";
    case T::kEnum:
      return "ENUM";
    case T::kSet:
      return "SET";
    case T::kTinyBlob:
      return "TINY_BLOB";
    case T::kMediumBlob:
      return "MEDIUM_BLOB";
    case T::kLongBlob:
      return "LONG_BLOB";
    case T::kBlob:
      return "BLOB";
    case T::kVarString:
      return "VAR_STRING";
    case T::kString:
      return "STRING";
    case T::kGeometry:
      return "GEOMETRY";
  }
  return "type " + std::to_string(static_cast<int>(type));
}

Result<BinlogTableMap> ParseBinlogTableMap(std::string_view data, size_t table_id_width,
                                           BinlogFlavor flavor, std::string_view context) {
  BinlogCursor in(data);
  BinlogTableMap table;
  uint8_t db_len, table_len;
  std::string_view db, name;
  uint64_t column_count;
  if (!in.ReadLE(table_id_width, &table.table_id) || !in.ReadLE(&table.flags) ||
      !in.ReadU8(&db_len) || !in.ReadBytes(db_len, &db) || !in.Skip(1) || !in.ReadU8(&table_len) ||
      !in.ReadBytes(table_len, &name) || !in.Skip(1) || !in.ReadPacked(&column_count)) {
    return Corrupt(context, "the table and database names are truncated");
  }
  table.database = std::string(db);
  table.table = std::string(name);
  std::string_view types;
  if (column_count > kMaxColumns) {
    return Corrupt(context, "column count " + std::to_string(column_count) + " of `" + table.table +
                                "` is more than a table can have (" + std::to_string(kMaxColumns) +
                                ")");
  }
  if (column_count > in.remaining() || !in.ReadBytes(column_count, &types)) {
    return Corrupt(context, "column count " + std::to_string(column_count) + " of `" + table.table +
                                "` is past the end of the event");
  }
  table.columns.resize(column_count);
  std::string_view metadata;
  if (!in.ReadPackedBytes(&metadata)) {
    return Corrupt(context, "the column metadata of `" + table.table + "` is truncated");
  }
  BinlogCursor meta(metadata);
  for (size_t i = 0; i < column_count; ++i) {
    BinlogColumn& column = table.columns[i];
    column.type = static_cast<T>(types[i]);
    if (MetadataWidth(column.type) < 0) {
      // The metadata of the columns after it cannot be told apart: the names stay, the rows
      // cannot be decoded.
      table.rows_status = Status::NotSupported(
          "binlog " + std::string(context) + ": column " + std::to_string(i) + " of `" +
          table.database + "`.`" + table.table + "` has " + BinlogColumnTypeName(column.type) +
          ", a binlog column type Sluice does not know");
      return table;
    }
    if (!ReadColumnMetadata(&meta, &column)) {
      return Corrupt(context, "the metadata of column " + std::to_string(i) + " (" +
                                  BinlogColumnTypeName(column.type) + ") of `" + table.table +
                                  "` is truncated");
    }
  }
  if (meta.remaining() > 0) {
    return Corrupt(context, "the column metadata of `" + table.table + "` has " +
                                std::to_string(meta.remaining()) + " bytes left over");
  }
  std::string_view nulls;
  if (!in.ReadBytes((column_count + 7) / 8, &nulls)) {
    return Corrupt(context, "the null bitmap of `" + table.table + "` is truncated");
  }
  for (size_t i = 0; i < column_count; ++i) {
    table.columns[i].nullable = (static_cast<uint8_t>(nulls[i / 8]) >> (i % 8) & 1) != 0;
  }
  Status st = ReadOptionalMetadata(in.rest(), flavor, &table, context);
  if (!st.ok()) return st;
  return table;
}

}  // namespace sluice
