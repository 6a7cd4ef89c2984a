#include "sluice/sql/filter_pushdown.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "sluice/sql/sql_text.h"

namespace sluice::sql {

namespace {

using Json = nlohmann::json;

// One relation of a FROM clause that is a Sluice table.
struct Binding {
  std::string key;   // lower-case `db.t`
  std::string name;  // lower-case name its columns are qualified with
  const DataType* row_type;
};

// What names resolve against.
struct Scope {
  const std::map<std::string, DataTypePtr>& tables;
  std::set<std::string> ctes;
  // Lower-case database an unqualified table name is in (`USE db`), or "".
  std::string database;

  // Lower-case `db.t` of a BASE_TABLE reference to a Sluice table, or "".
  std::string TableKey(const Json& ref) const;
};

struct From {
  std::vector<Binding> bindings;
  bool join = false;
  // A relation that is not a Sluice table (subquery, CTE, other function): unqualified columns
  // may be its.
  bool other = false;
};

std::string Text(const Json& value, const char* key) {
  auto it = value.find(key);
  return it != value.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// `db.t` of a sluice_scan('db.t' ...) table function, lower case; "" for another function.
std::string ScanArgument(const Json& ref) {
  const Json& function = ref.value("function", Json::object());
  if (Lower(Text(function, "function_name")) != "sluice_scan") return "";
  const Json& children = function.value("children", Json::array());
  if (children.empty() || Text(children[0], "class") != "CONSTANT") return "";
  const Json& value = children[0].value("value", Json::object());
  return value.contains("value") && value["value"].is_string()
             ? Lower(value["value"].get<std::string>())
             : std::string();
}

std::string Scope::TableKey(const Json& ref) const {
  std::string schema = Lower(Text(ref, "schema_name"));
  std::string table = Lower(Text(ref, "table_name"));
  if (schema.empty()) {
    if (ctes.count(table) > 0 || database.empty()) return "";
    schema = database;
  }
  std::string key = schema + "." + table;
  return tables.count(key) > 0 ? key : "";
}

void CollectCtes(const Json& node, std::set<std::string>* ctes) {
  if (node.is_object()) {
    auto it = node.find("cte_map");
    if (it != node.end() && it->is_object()) {
      for (const Json& entry : it->value("map", Json::array()))
        ctes->insert(Lower(Text(entry, "key")));
    }
    for (const auto& [key, child] : node.items()) CollectCtes(child, ctes);
  } else if (node.is_array()) {
    for (const Json& child : node) CollectCtes(child, ctes);
  }
}

// Counts the reads of each Sluice table; `unsafe` when a relation may hide another read.
void CollectReads(const Json& node, const Scope& scope, std::map<std::string, int>* reads,
                  bool* unsafe) {
  if (node.is_array()) {
    for (const Json& child : node) CollectReads(child, scope, reads, unsafe);
    return;
  }
  if (!node.is_object()) return;
  std::string type = Text(node, "type");
  if (type == "BASE_TABLE") {
    std::string key = scope.TableKey(node);
    std::string schema = Lower(Text(node, "schema_name"));
    std::string table = Lower(Text(node, "table_name"));
    size_t dollar = table.find('$');
    if (!key.empty()) {
      ++(*reads)[key];
    } else if (schema.empty() && scope.ctes.count(table) > 0) {
      // A CTE: its body is walked where it is defined.
    } else if (dollar == std::string::npos ||
               scope.tables.count((schema.empty() ? scope.database : schema) + "." +
                                  table.substr(0, dollar)) == 0) {
      *unsafe = true;  // a view or DuckDB table may read a Sluice table again
    }
  } else if (type == "TABLE_FUNCTION") {
    std::string key = ScanArgument(node);
    if (scope.tables.count(key) > 0) ++(*reads)[key];
  }
  for (const auto& [key, child] : node.items()) CollectReads(child, scope, reads, unsafe);
}

void CollectFrom(const Json& ref, const Scope& scope, From* from) {
  std::string type = Text(ref, "type");
  std::string alias = Lower(Text(ref, "alias"));
  if (type == "EMPTY") return;
  if (type == "JOIN") {
    from->join = true;
    CollectFrom(ref.value("left", Json::object()), scope, from);
    CollectFrom(ref.value("right", Json::object()), scope, from);
    return;
  }
  std::string key;
  std::string name;
  if (type == "BASE_TABLE") {
    key = scope.TableKey(ref);
    name = alias.empty() ? Lower(Text(ref, "table_name")) : alias;
  } else if (type == "TABLE_FUNCTION") {
    key = ScanArgument(ref);
    name = alias.empty() ? "sluice_scan" : alias;
  }
  auto it = scope.tables.find(key);
  if (it == scope.tables.end()) {
    from->other = true;
    return;
  }
  from->bindings.push_back({key, name, it->second.get()});
}

struct Column {
  size_t binding;
  const DataField* field;
};

const DataField* FindField(const DataType& row_type, const std::string& name) {
  const DataField* found = nullptr;
  for (const DataField& field : row_type.fields()) {
    if (Lower(field.name) != name) continue;
    if (found != nullptr) return nullptr;
    found = &field;
  }
  return found;
}

std::optional<Column> ResolveColumn(const Json& ref, const From& from) {
  if (Text(ref, "class") != "COLUMN_REF") return std::nullopt;
  std::vector<std::string> names;
  for (const Json& name : ref.value("column_names", Json::array())) {
    if (!name.is_string()) return std::nullopt;
    names.push_back(Lower(name.get<std::string>()));
  }
  std::optional<Column> out;
  for (size_t i = 0; i < from.bindings.size(); ++i) {
    const Binding& b = from.bindings[i];
    bool qualifies = false;
    if (names.size() == 1) {
      qualifies = !from.other;
    } else if (names.size() == 2) {
      qualifies = names[0] == b.name;
    } else if (names.size() == 3) {
      qualifies = names[0] + "." + names[1] == b.key && names[1] == b.name;
    }
    if (!qualifies) continue;
    const DataField* field = FindField(*b.row_type, names.back());
    if (field == nullptr) continue;
    if (out) return std::nullopt;  // ambiguous: DuckDB rejects it anyway
    out = Column{i, field};
  }
  return out;
}

bool IsInteger(const std::string& id) {
  static const std::set<std::string> kIds = {"TINYINT",  "SMALLINT",  "INTEGER",  "BIGINT",
                                             "UTINYINT", "USMALLINT", "UINTEGER", "HUGEINT"};
  return kIds.count(id) > 0;
}

bool IsDateText(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i != 4 && i != 7 && !std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

// The digits of |value|.
std::string AbsDigits(int64_t value) {
  uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  return std::to_string(magnitude);
}

// `unscaled` / 10^scale as decimal text ("150", 2 -> "1.50").
std::string DecimalText(int64_t unscaled, int scale) {
  std::string digits = AbsDigits(unscaled);
  size_t width = static_cast<size_t>(scale) + 1;
  if (digits.size() < width) digits = std::string(width - digits.size(), '0') + digits;
  std::string integer = digits.substr(0, digits.size() - scale);
  std::string fraction = digits.substr(digits.size() - scale);
  return (unscaled < 0 ? "-" : "") + integer + (scale > 0 ? "." + fraction : "");
}

// The constant `expr` as a literal of the where-language meaning what it means to DuckDB when
// compared with a column of `type`; nullopt when the two could differ.
std::optional<std::string> Literal(const Json& expr, const DataType& type) {
  std::string cls = Text(expr, "class");
  if (cls == "CAST") {
    const Json& child = expr.value("child", Json::object());
    if (Text(expr.value("cast_type", Json::object()), "id") != "DATE" ||
        type.root() != TypeRoot::kDate || Text(child, "class") != "CONSTANT") {
      return std::nullopt;
    }
    return Literal(child, type);
  }
  if (cls != "CONSTANT") return std::nullopt;
  const Json& value = expr.value("value", Json::object());
  if (value.value("is_null", true) || !value.contains("value")) return std::nullopt;
  const Json& v = value["value"];
  const Json& value_type = value.value("type", Json::object());
  std::string id = Text(value_type, "id");
  switch (type.root()) {
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt: {
      if (!IsInteger(id) || !v.is_number_integer()) return std::nullopt;
      if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
        return std::nullopt;
      }
      int64_t n = v.get<int64_t>();
      int64_t limit = type.root() == TypeRoot::kTinyInt    ? INT8_MAX
                      : type.root() == TypeRoot::kSmallInt ? INT16_MAX
                      : type.root() == TypeRoot::kInt      ? INT32_MAX
                                                           : INT64_MAX;
      if (n > limit || n < -limit - 1) return std::nullopt;
      return std::to_string(n);
    }
    case TypeRoot::kDecimal: {
      int scale = 0;
      if (id == "DECIMAL") {
        scale = value_type.value("type_info", Json::object()).value("scale", -1);
      } else if (!IsInteger(id)) {
        return std::nullopt;
      }
      if (!v.is_number_integer() || scale < 0 || scale > type.scale()) return std::nullopt;
      if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
        return std::nullopt;
      }
      int64_t unscaled = v.get<int64_t>();
      // The integer part must fit the column, or the literal would not convert exactly.
      std::string digits = AbsDigits(unscaled);
      int integer_digits = static_cast<int>(digits.size()) - scale;
      if (integer_digits > type.precision() - type.scale()) return std::nullopt;
      return DecimalText(unscaled, scale);
    }
    case TypeRoot::kVarChar:
      if (id != "VARCHAR" || !v.is_string()) return std::nullopt;
      return QuoteString(v.get<std::string>());
    case TypeRoot::kDate:
      if (id != "VARCHAR" || !v.is_string() || !IsDateText(v.get<std::string>())) {
        return std::nullopt;
      }
      return "DATE '" + v.get<std::string>() + "'";
    case TypeRoot::kBoolean:
      if (id != "BOOLEAN" || !v.is_boolean()) return std::nullopt;
      return v.get<bool>() ? std::string("TRUE") : std::string("FALSE");
    default:
      return std::nullopt;
  }
}

std::string ColumnText(const std::string& name) {
  std::string out = "`";
  for (char c : name) {
    out += c;
    if (c == '`') out += c;
  }
  return out + "`";
}

std::optional<std::string> ComparisonOperator(const std::string& type, bool flipped) {
  if (type == "COMPARE_EQUAL") return std::string("=");
  if (type == "COMPARE_NOTEQUAL") return std::string("<>");
  if (type == "COMPARE_LESSTHAN") return std::string(flipped ? ">" : "<");
  if (type == "COMPARE_GREATERTHAN") return std::string(flipped ? "<" : ">");
  if (type == "COMPARE_LESSTHANOREQUALTO") return std::string(flipped ? ">=" : "<=");
  if (type == "COMPARE_GREATERTHANOREQUALTO") return std::string(flipped ? "<=" : ">=");
  return std::nullopt;
}

struct Pushed {
  size_t binding;
  std::string expression;
};

std::optional<Pushed> Render(const Json& conjunct, const From& from) {
  std::string cls = Text(conjunct, "class");
  std::string type = Text(conjunct, "type");
  if (cls == "COMPARISON") {
    const Json& left = conjunct.value("left", Json::object());
    const Json& right = conjunct.value("right", Json::object());
    std::optional<Column> column = ResolveColumn(left, from);
    const Json* constant = &right;
    bool flipped = false;
    if (!column) {
      column = ResolveColumn(right, from);
      constant = &left;
      flipped = true;
    }
    std::optional<std::string> op = ComparisonOperator(type, flipped);
    if (!column || !op) return std::nullopt;
    std::optional<std::string> literal = Literal(*constant, *column->field->type);
    if (!literal) return std::nullopt;
    return Pushed{column->binding, ColumnText(column->field->name) + " " + *op + " " + *literal};
  }
  if (type == "COMPARE_IN") {
    const Json& children = conjunct.value("children", Json::array());
    if (children.size() < 2) return std::nullopt;
    std::optional<Column> column = ResolveColumn(children[0], from);
    if (!column) return std::nullopt;
    std::string list;
    for (size_t i = 1; i < children.size(); ++i) {
      std::optional<std::string> literal = Literal(children[i], *column->field->type);
      if (!literal) return std::nullopt;
      list += (i > 1 ? ", " : "") + *literal;
    }
    return Pushed{column->binding, ColumnText(column->field->name) + " IN (" + list + ")"};
  }
  if (type == "COMPARE_BETWEEN") {
    std::optional<Column> column = ResolveColumn(conjunct.value("input", Json::object()), from);
    if (!column) return std::nullopt;
    std::optional<std::string> lower =
        Literal(conjunct.value("lower", Json::object()), *column->field->type);
    std::optional<std::string> upper =
        Literal(conjunct.value("upper", Json::object()), *column->field->type);
    if (!lower || !upper) return std::nullopt;
    return Pushed{column->binding,
                  ColumnText(column->field->name) + " BETWEEN " + *lower + " AND " + *upper};
  }
  if (type == "OPERATOR_IS_NULL" || type == "OPERATOR_IS_NOT_NULL") {
    bool is_null = type == "OPERATOR_IS_NULL";
    if (is_null && from.join) return std::nullopt;
    const Json& children = conjunct.value("children", Json::array());
    if (children.size() != 1) return std::nullopt;
    std::optional<Column> column = ResolveColumn(children[0], from);
    if (!column) return std::nullopt;
    return Pushed{column->binding,
                  ColumnText(column->field->name) + (is_null ? " IS NULL" : " IS NOT NULL")};
  }
  return std::nullopt;
}

// Pointers into `expr` (not into copies: Json::value returns one).
void Conjuncts(const Json& expr, std::vector<const Json*>* out) {
  auto children = expr.find("children");
  if (Text(expr, "type") == "CONJUNCTION_AND" && children != expr.end() && children->is_array()) {
    for (const Json& child : *children) Conjuncts(child, out);
  } else {
    out->push_back(&expr);
  }
}

void PushFromSelects(const Json& node, const Scope& scope,
                     std::map<std::string, std::vector<std::string>>* pushed) {
  if (node.is_array()) {
    for (const Json& child : node) PushFromSelects(child, scope, pushed);
    return;
  }
  if (!node.is_object()) return;
  if (Text(node, "type") == "SELECT_NODE" && node.contains("where_clause") &&
      node["where_clause"].is_object()) {
    From from;
    CollectFrom(node.value("from_table", Json::object()), scope, &from);
    std::vector<const Json*> conjuncts;
    Conjuncts(node["where_clause"], &conjuncts);
    for (const Json* conjunct : conjuncts) {
      std::optional<Pushed> p = Render(*conjunct, from);
      if (p) (*pushed)[from.bindings[p->binding].key].push_back(std::move(p->expression));
    }
  }
  for (const auto& [key, child] : node.items()) PushFromSelects(child, scope, pushed);
}

}  // namespace

std::map<std::string, std::string> PushdownFilters(std::string_view ast_json,
                                                   const std::map<std::string, DataTypePtr>& tables,
                                                   std::string_view database) {
  Json ast = Json::parse(ast_json, nullptr, /*allow_exceptions=*/false);
  if (ast.is_discarded() || !ast.is_object() || ast.value("error", true)) return {};
  const Json& statements = ast.value("statements", Json::array());
  Scope scope{tables, {}, Lower(database)};
  CollectCtes(statements, &scope.ctes);
  std::map<std::string, int> reads;
  bool unsafe = false;
  CollectReads(statements, scope, &reads, &unsafe);
  if (unsafe) return {};
  std::map<std::string, std::vector<std::string>> pushed;
  PushFromSelects(statements, scope, &pushed);
  std::map<std::string, std::string> out;
  for (auto& [key, expressions] : pushed) {
    if (reads[key] != 1) continue;
    std::string where;
    for (const std::string& e : expressions) where += (where.empty() ? "" : " AND ") + e;
    out[key] = std::move(where);
  }
  return out;
}

}  // namespace sluice::sql
