// The `filter` of every corpus case parses against its table's latest schema, and keeps every
// row the case expects (the expected rows are exactly the rows that satisfy it), and the exact
// stats of those rows never prune them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>

#include "predicate/predicate_test_util.h"
#include "sluice/predicate/literal.h"
#include "sluice/predicate/predicate_parser.h"
#include "test_util.h"

namespace sluice {
namespace {

using nlohmann::json;

// The atomic Paimon type strings the corpus uses ("INT NOT NULL", "DECIMAL(23, 5)", ...).
DataTypePtr AtomicType(std::string s) {
  bool nullable = true;
  const std::string not_null = " NOT NULL";
  if (s.size() > not_null.size() && s.ends_with(not_null)) {
    nullable = false;
    s.resize(s.size() - not_null.size());
  }
  auto arg = [&](size_t i) {
    size_t open = s.find('(');
    std::string inner = s.substr(open + 1, s.find(')') - open - 1);
    size_t comma = inner.find(',');
    return std::stoi(i == 0 ? inner.substr(0, comma) : inner.substr(comma + 1));
  };
  std::string base = s.substr(0, s.find('('));
  if (base == "BOOLEAN") return DataType::Boolean(nullable);
  if (base == "TINYINT") return DataType::TinyInt(nullable);
  if (base == "SMALLINT") return DataType::SmallInt(nullable);
  if (base == "INT") return DataType::Int(nullable);
  if (base == "BIGINT") return DataType::BigInt(nullable);
  if (base == "FLOAT") return DataType::Float(nullable);
  if (base == "DOUBLE") return DataType::Double(nullable);
  if (base == "DATE") return DataType::Date(nullable);
  if (base == "STRING") return DataType::String(nullable);
  if (base == "BYTES") return DataType::Bytes(nullable);
  if (base == "BLOB") return DataType::Blob(nullable);
  if (base == "DECIMAL") return DataType::Decimal(arg(0), arg(1), nullable);
  if (base == "VARCHAR") return DataType::VarChar(arg(0), nullable);
  if (base == "CHAR") return DataType::Char(arg(0), nullable);
  if (base == "TIMESTAMP") {
    return s.find("LOCAL TIME ZONE") != std::string::npos ? DataType::TimestampLtz(arg(0), nullable)
                                                          : DataType::Timestamp(arg(0), nullable);
  }
  return nullptr;
}

std::string Base64Decode(const std::string& in) {
  std::string out;
  int bits = 0;
  uint32_t acc = 0;
  for (char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+')
      v = 62;
    else if (c == '/')
      v = 63;
    else
      continue;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

// A JSON value of the corpus encoding (README "Value encoding in rows") as a Value of `type`.
Value JsonToValue(const json& j, const DataTypePtr& type) {
  if (j.is_null()) return Value::Null();
  Literal literal;
  if (j.is_object()) {
    return Value::Binary(Base64Decode(j.at("base64").get<std::string>()));
  }
  if (j.is_boolean()) {
    literal.kind = Literal::Kind::kBoolean;
    literal.boolean = j.get<bool>();
  } else if (j.is_string()) {
    literal.kind = Literal::Kind::kString;
    literal.text = j.get<std::string>();
  } else {
    literal.kind = Literal::Kind::kNumber;
    literal.text = j.dump();
    if (j.is_number_float()) {
      // Shortest text that reads back as the same double.
      char buf[64];
      auto res = std::to_chars(buf, buf + sizeof(buf), j.get<double>());
      literal.text.assign(buf, res.ptr);
    }
  }
  Result<Value> v = ConvertLiteral(literal, *type);
  EXPECT_OK(v) << j.dump() << " as " << type->ToString();
  return v.ok() ? *v : Value::Null();
}

json LatestSchema(const std::string& table_dir) {
  namespace fs = std::filesystem;
  int best = -1;
  for (const auto& e : fs::directory_iterator(table_dir + "/schema")) {
    std::string name = e.path().filename().string();
    if (name.rfind("schema-", 0) == 0) best = std::max(best, std::stoi(name.substr(7)));
  }
  EXPECT_GE(best, 0) << table_dir;
  return json::parse(test::ReadFileOrFail(table_dir + "/schema/schema-" + std::to_string(best)));
}

struct CorpusCase {
  json raw;
  DataTypePtr out_type;  // the output columns as a ROW type
  std::vector<ValueList> rows;
};

std::vector<CorpusCase> LoadCases() {
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  EXPECT_TRUE(in) << "corpus not found under " << test::CompatDir();
  std::vector<CorpusCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    CorpusCase c;
    c.raw = json::parse(line);
    std::vector<std::pair<std::string, DataTypePtr>> fields;
    std::vector<bool> atomic;
    for (size_t i = 0; i < c.raw.at("columns").size(); ++i) {
      DataTypePtr t = AtomicType(c.raw.at("column_types")[i].get<std::string>());
      atomic.push_back(t != nullptr);
      // Nested and system columns are kept as their JSON text: no filter compares them.
      fields.emplace_back(c.raw.at("columns")[i].get<std::string>(),
                          t != nullptr ? t : DataType::String());
    }
    c.out_type = test::RowOf(fields);
    for (const json& r : c.raw.at("rows")) {
      ValueList row;
      for (size_t i = 0; i < r.size() && i < fields.size(); ++i) {
        row.push_back(atomic[i] || r[i].is_null() ? JsonToValue(r[i], fields[i].second)
                                                  : Value::String(r[i].dump()));
      }
      c.rows.push_back(std::move(row));
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

// What identifies the rows a read sees, apart from its filter and projection.
std::string ScanKey(const json& c) {
  json read = c.at("read");
  read.erase("filter");
  read.erase("projection");
  return c.at("table").get<std::string>() + " " + read.dump();
}

// Rows as sorted debug strings, projected to `columns` of `type`.
std::vector<std::string> RowSet(const std::vector<ValueList>& rows, const DataType& type,
                                const json& columns) {
  std::vector<std::string> out;
  for (const ValueList& row : rows) {
    std::string s;
    for (const json& name : columns) {
      int i = type.FieldIndex(name.get<std::string>());
      s += (i < 0 ? std::string("?") : row[static_cast<size_t>(i)].DebugString()) + "|";
    }
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PredicateCorpusTest, EveryCaseFilterParsesAndKeepsItsRows) {
  std::vector<CorpusCase> cases = LoadCases();
  std::map<std::string, const CorpusCase*> unfiltered;
  for (const CorpusCase& c : cases) {
    if (!c.raw.at("read").contains("filter")) unfiltered.emplace(ScanKey(c.raw), &c);
  }
  int filters = 0;
  int evaluated = 0;
  int rows_checked = 0;
  int exact = 0;
  for (const CorpusCase& c : cases) {
    const json& read = c.raw.at("read");
    if (!read.contains("filter")) continue;
    const std::string filter = read.at("filter").get<std::string>();
    const std::string id = c.raw.at("id").get<std::string>();
    ++filters;

    // 1. Against the table schema.
    json schema =
        LatestSchema(test::CompatTablesDir() + "/" + c.raw.at("table").get<std::string>());
    std::vector<std::pair<std::string, DataTypePtr>> fields;
    for (const json& f : schema.at("fields")) {
      DataTypePtr t = f.at("type").is_string() ? AtomicType(f.at("type").get<std::string>())
                                               : DataType::Array(DataType::Int());
      ASSERT_NE(t, nullptr) << id << ": type " << f.at("type").dump();
      fields.emplace_back(f.at("name").get<std::string>(), t);
    }
    DataTypePtr table_type = test::RowOf(fields);
    Result<PredicatePtr> p = ParsePredicate(filter, *table_type);
    ASSERT_OK(p) << id;
    // The rendering parses back to the same predicate.
    Result<PredicatePtr> again = ParsePredicate((*p)->ToString(), *table_type);
    ASSERT_OK(again) << id;
    EXPECT_EQ((*again)->ToString(), (*p)->ToString()) << id;

    // 2. Against the expected output rows, when they hold every column the filter uses: the
    // filter keeps them all, and their exact stats do not prune them.
    Result<PredicatePtr> on_output = ParsePredicate(filter, *c.out_type);
    if (!on_output.ok()) continue;
    ++evaluated;
    auto batch = test::MakeBatch(c.out_type, c.rows);
    EXPECT_EQ(test::Kept(**on_output, *batch).size(), c.rows.size()) << id << ": " << filter;
    rows_checked += static_cast<int>(c.rows.size());
    if (!c.rows.empty()) {
      std::vector<ColumnStats> stats = test::StatsOf(*batch);
      EXPECT_TRUE((*on_output)->MightMatch(batch->num_rows(), stats)) << id;
    }

    // 3. Against the same scan without the filter: it keeps exactly the expected rows.
    auto full = unfiltered.find(ScanKey(c.raw));
    if (full == unfiltered.end()) continue;
    const CorpusCase& all = *full->second;
    Result<PredicatePtr> on_all = ParsePredicate(filter, *all.out_type);
    if (!on_all.ok()) continue;
    auto all_batch = test::MakeBatch(all.out_type, all.rows);
    std::vector<ValueList> kept;
    for (int i : test::Kept(**on_all, *all_batch)) kept.push_back(all.rows[static_cast<size_t>(i)]);
    EXPECT_EQ(RowSet(kept, *all.out_type, c.raw.at("columns")),
              RowSet(c.rows, *c.out_type, c.raw.at("columns")))
        << id << ": " << filter << " over " << all.raw.at("id").get<std::string>();
    ++exact;
  }
  EXPECT_GT(filters, 0);
  EXPECT_GT(evaluated, 0);
  EXPECT_GT(exact, 0);
  std::printf(
      "corpus filters parsed: %d; evaluated on their expected rows: %d (%d rows); checked exactly "
      "against the unfiltered scan: %d\n",
      filters, evaluated, rows_checked, exact);
}

}  // namespace
}  // namespace sluice
