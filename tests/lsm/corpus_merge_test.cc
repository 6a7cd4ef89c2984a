// Cross-check of the merge engines against the corpus: the README of a Java-written table lists
// the records Java wrote (in order), cases.jsonl the rows Java reads back. Feeding the README's
// records as KeyValues (sequence numbers in write order) through the table's merge function must
// give those rows. The data files themselves are read by the read path (issue 5), not here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "lsm_test_util.h"
#include "sluice/meta/core_options.h"
#include "sluice/row/bucket.h"
#include "test_util.h"

namespace sluice {
namespace {

struct Record {
  RowKind kind;
  std::vector<std::string> tokens;
  int commit_snapshot = 0;  // snapshot that committed it
};

struct Readme {
  std::vector<Record> records;
  std::vector<std::vector<std::string>> recalled;  // "Recall with ..." result lines
  int last_compact_snapshot = 0;
  std::map<int, int> compacted_before;  // snapshot -> snapshot of the last compaction <= it
};

std::string Trim(std::string s) {
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ';'))
    s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

// Splits "a, \"b, c\", BinaryString.fromString(\"d\")" into tokens, unquoting strings.
std::vector<std::string> SplitValues(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, in_string = false;
  int depth = 0;
  for (char c : text) {
    if (in_string) {
      if (c == '"') {
        in_string = false;
      } else {
        cur += c;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      quoted = true;
      cur.clear();
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(quoted ? "\"" + cur : Trim(cur));
      cur.clear();
      quoted = false;
    } else if (!quoted) {
      cur += c;
    }
  }
  out.push_back(quoted ? "\"" + cur : Trim(cur));
  return out;
}

Readme ParseReadme(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  Readme r;
  std::string line;
  bool recall = false;
  std::vector<size_t> pending;  // records waiting for their commit line
  while (std::getline(in, line)) {
    line = Trim(line);
    if (line.empty()) continue;
    if (line.rfind("Recall with", 0) == 0) {
      recall = true;
      continue;
    }
    if (recall) {
      r.recalled.push_back(SplitValues(line));
      continue;
    }
    std::optional<RowKind> kind;
    std::string rest;
    auto take = [&](const char* prefix, RowKind k) {
      size_t n = std::strlen(prefix);
      if (line.compare(0, n, prefix) != 0) return false;
      kind = k;
      rest = line.substr(n);
      return true;
    };
    if (take("Add(", RowKind::kInsert) || take("Delete(", RowKind::kDelete)) {
      rest = rest.substr(0, rest.rfind(')'));
    } else if (!take("Add:", RowKind::kInsert) && !take("DELETE:", RowKind::kDelete) &&
               !take("UPDATE_AFTER:", RowKind::kUpdateAfter) &&
               !take("UPDATE_BEFORE:", RowKind::kUpdateBefore)) {
      int snapshot = 0;
      if (std::sscanf(line.c_str(), "Commit - snapshot %d", &snapshot) == 1) {
        for (size_t i : pending) r.records[i].commit_snapshot = snapshot;
        pending.clear();
        r.compacted_before[snapshot] = r.last_compact_snapshot;
      } else if (std::sscanf(line.c_str(), "Compact - snapshot %d", &snapshot) == 1) {
        r.last_compact_snapshot = snapshot;
        r.compacted_before[snapshot] = snapshot;
      } else if (std::sscanf(line.c_str(), "snapshot-%d", &snapshot) == 1) {
        for (size_t i : pending) r.records[i].commit_snapshot = snapshot - 1;
        pending.clear();
      }
      continue;
    }
    pending.push_back(r.records.size());
    r.records.push_back(Record{*kind, SplitValues(rest), 0});
  }
  // Records of the "snapshot-N" style belong to the last snapshot header seen.
  int last = 0;
  for (const Record& rec : r.records) last = std::max(last, rec.commit_snapshot);
  for (size_t i : pending) r.records[i].commit_snapshot = last + 1;
  return r;
}

Value ParseToken(const std::string& token, const DataType& type) {
  if (token == "null") return Value::Null();
  std::string t = token;
  const std::string kBinaryString = "BinaryString.fromString";
  if (t.rfind(kBinaryString, 0) == 0) t = t.substr(kBinaryString.size());
  if (!t.empty() && t[0] == '"') t = t.substr(1);
  switch (type.root()) {
    case TypeRoot::kInt:
      return Value::Int32(std::stoi(t));
    case TypeRoot::kDouble:
      return Value::Double(std::stod(t));
    case TypeRoot::kBoolean:
      return Value::Boolean(t == "true");
    case TypeRoot::kVarChar:
      return Value::String(t);
    default:
      ADD_FAILURE() << "type " << type.ToString() << " not handled by this test";
      return Value::Null();
  }
}

Value FromJson(const nlohmann::json& j, const DataType& type) {
  if (j.is_null()) return Value::Null();
  switch (type.root()) {
    case TypeRoot::kInt:
      return Value::Int32(j.get<int32_t>());
    case TypeRoot::kDouble:
      return Value::Double(j.get<double>());
    case TypeRoot::kBoolean:
      return Value::Boolean(j.get<bool>());
    case TypeRoot::kVarChar:
      return Value::String(j.get<std::string>());
    default:
      ADD_FAILURE() << "type " << type.ToString() << " not handled by this test";
      return Value::Null();
  }
}

TableSchema LoadSchema(const std::string& table_dir) {
  std::string text = test::ReadFileOrFail(table_dir + "/schema/schema-0");
  Result<TableSchema> schema = TableSchema::FromJson(text);
  EXPECT_OK(schema);
  return std::move(schema).value();
}

std::vector<int> PrimaryKeyIndexes(const TableSchema& schema) {
  std::vector<int> out;
  for (const std::string& pk : schema.primary_keys()) out.push_back(schema.FieldIndex(pk));
  return out;
}

// Merges `records` (in write order) key by key; returns the rows a batch read returns.
std::multiset<std::string> MergeAll(const TableSchema& schema, const DynamicOptions& dynamic,
                                    const std::vector<ValueList>& rows,
                                    const std::vector<RowKind>& kinds) {
  Result<CoreOptions> options = CoreOptions::FromSchema(schema, dynamic);
  EXPECT_OK(options);
  Result<std::unique_ptr<MergeFunction>> f = CreateMergeFunction(schema, *options);
  EXPECT_OK(f);
  std::vector<int> pk = PrimaryKeyIndexes(schema);
  // Full primary key -> records in sequence order.
  std::map<std::string, std::vector<KeyValue>> by_key;
  for (size_t i = 0; i < rows.size(); ++i) {
    KeyValue kv;
    for (int p : pk) kv.key.push_back(rows[i][p]);
    kv.sequence_number = static_cast<int64_t>(i);
    kv.kind = kinds[i];
    kv.value = rows[i];
    by_key[test::Render(kv.key)].push_back(std::move(kv));
  }
  std::multiset<std::string> out;
  for (const auto& [key, records] : by_key) {
    std::optional<KeyValue> merged = test::Merge(f->get(), records);
    if (merged) out.insert(test::Render(merged->value));
  }
  return out;
}

std::vector<nlohmann::json> CasesOf(const std::string& table) {
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  EXPECT_TRUE(in.good());
  std::vector<nlohmann::json> out;
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json c = nlohmann::json::parse(line);
    if (c["table"] == table) out.push_back(std::move(c));
  }
  return out;
}

TEST(CorpusMergeTest, PartialUpdateReadmeAndCases) {
  int checked = 0;
  for (const char* format : {"parquet", "orc"}) {
    std::string rel = std::string(format) + "/pk_table_partial_update.db/pk_table_partial_update";
    std::string dir = test::CompatTablesDir() + "/" + rel;
    TableSchema schema = LoadSchema(dir);
    Readme readme = ParseReadme(dir + "/README");
    ASSERT_EQ(readme.records.size(), 8u);
    std::vector<ValueList> rows;
    std::vector<RowKind> kinds;
    for (const Record& rec : readme.records) {
      ASSERT_EQ(rec.tokens.size(), schema.fields().size());
      ValueList row;
      for (size_t i = 0; i < rec.tokens.size(); ++i)
        row.push_back(ParseToken(rec.tokens[i], *schema.fields()[i].type));
      rows.push_back(std::move(row));
      kinds.push_back(rec.kind);
    }
    std::multiset<std::string> got = MergeAll(schema, {}, rows, kinds);

    std::multiset<std::string> recalled;
    for (const auto& tokens : readme.recalled) {
      ValueList row;
      for (size_t i = 0; i < tokens.size(); ++i) {
        const DataType& type = *schema.fields()[i].type;
        row.push_back(type.root() == TypeRoot::kVarChar && tokens[i] != "null"
                          ? Value::String(tokens[i])
                          : ParseToken(tokens[i], type));
      }
      recalled.insert(test::Render(row));
    }
    EXPECT_EQ(got, recalled) << rel;
    ++checked;

    for (const nlohmann::json& c : CasesOf(rel)) {
      std::multiset<std::string> expected;
      for (const auto& jrow : c["rows"]) {
        ValueList row;
        for (size_t i = 0; i < jrow.size(); ++i)
          row.push_back(FromJson(jrow[i], *schema.fields()[i].type));
        expected.insert(test::Render(row));
      }
      EXPECT_EQ(got, expected) << c["id"];
      ++checked;
    }
  }
  EXPECT_GE(checked, 3);
}

// The f0/f1/f2/f3 tables: records up to a snapshot, optionally one partition and bucket, with
// the case's dynamic options. `compacted_only`: first-row batch reads see only files written by
// the last compaction (level 0 is skipped).
void CheckScanAndReadCases(const std::string& rel, bool compacted_only, int* checked) {
  std::string dir = test::CompatTablesDir() + "/" + rel;
  TableSchema schema = LoadSchema(dir);
  Readme readme = ParseReadme(dir + "/README");
  ASSERT_FALSE(readme.records.empty());
  int latest = 0;
  for (const Record& rec : readme.records) latest = std::max(latest, rec.commit_snapshot);
  for (const nlohmann::json& c : CasesOf(rel)) {
    const nlohmann::json& read = c["read"];
    if (read.contains("mode") || read.contains("filter"))
      continue;  // streaming / filters: read path
    int snapshot = read["snapshot"].is_null() ? latest : read["snapshot"].get<int>();
    int visible = compacted_only ? readme.compacted_before[snapshot] : snapshot;
    DynamicOptions dynamic;
    if (read.contains("options")) {
      for (const auto& [k, v] : read["options"].items()) dynamic[k] = v.get<std::string>();
    }
    std::vector<ValueList> rows;
    std::vector<RowKind> kinds;
    for (const Record& rec : readme.records) {
      if (rec.commit_snapshot > visible) continue;
      ValueList row;
      for (size_t i = 0; i < rec.tokens.size(); ++i)
        row.push_back(ParseToken(rec.tokens[i], *schema.fields()[i].type));
      if (read.contains("partition")) {
        const std::string& f1 = read["partition"]["f1"].get_ref<const std::string&>();
        if (std::to_string(row[1].int32()) != f1) continue;
      }
      if (read.contains("bucket")) {
        ValueList bucket_key;
        for (const std::string& name : schema.bucket_keys())
          bucket_key.push_back(row[schema.FieldIndex(name)]);
        Result<int32_t> bucket = DefaultBucketOfKey(bucket_key, *schema.LogicalBucketKeyType(),
                                                    CoreOptions::FromSchema(schema)->bucket());
        ASSERT_OK(bucket);
        if (*bucket != read["bucket"].get<int>()) continue;
      }
      rows.push_back(std::move(row));
      kinds.push_back(rec.kind);
    }
    std::multiset<std::string> got = MergeAll(schema, dynamic, rows, kinds);
    std::multiset<std::string> expected;
    for (const auto& jrow : c["rows"]) {
      ValueList row;
      for (size_t i = 0; i < jrow.size(); ++i)
        row.push_back(FromJson(jrow[i], *schema.fields()[i].type));
      expected.insert(test::Render(row));
    }
    EXPECT_EQ(got, expected) << c["id"];
    ++*checked;
  }
}

TEST(CorpusMergeTest, DeduplicateAggregationAndPartialUpdateOverrides) {
  int checked = 0;
  for (const char* format : {"parquet", "orc"}) {
    CheckScanAndReadCases(
        std::string(format) + "/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor", false,
        &checked);
  }
  // parquet: latest, snapshot-2, latest-partition-10-bucket-1, aggregation, partial-update;
  // orc: the same less one.
  EXPECT_GE(checked, 9);
}

TEST(CorpusMergeTest, FirstRow) {
  int checked = 0;
  for (const char* format : {"parquet", "orc"}) {
    CheckScanAndReadCases(
        std::string(format) +
            "/pk_table_scan_and_read_first_row.db/pk_table_scan_and_read_first_row",
        true, &checked);
  }
  EXPECT_GE(checked, 2);
}

// Every schema Java wrote in the corpus passes ValidateMergeFunction, which Java ran on each one
// at CREATE / ALTER TABLE (validateMergeFunction, validateMergeFunctionFactory).
TEST(CorpusMergeTest, EveryJavaWrittenSchemaBuildsItsMergeFunction) {
  namespace fs = std::filesystem;
  int schemas = 0;
  for (const auto& entry : fs::recursive_directory_iterator(test::CompatTablesDir())) {
    const fs::path& path = entry.path();
    if (!entry.is_regular_file() || path.parent_path().filename() != "schema" ||
        path.filename().string().rfind("schema-", 0) != 0) {
      continue;
    }
    ASSERT_OK_AND_ASSIGN(TableSchema schema,
                         TableSchema::FromJson(test::ReadFileOrFail(path.string())));
    EXPECT_OK(ValidateMergeFunction(schema)) << path;
    ++schemas;
  }
  EXPECT_GT(schemas, 100);
}

}  // namespace
}  // namespace sluice
