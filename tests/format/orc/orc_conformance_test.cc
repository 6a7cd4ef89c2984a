// Reads every ORC file of the compatibility corpus (data files and ORC manifests) and of the
// Apache ORC example files, comparing values with the expected rows the ORC project ships.
#include <gtest/gtest.h>

#include <zlib.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sluice/format/orc/orc_reader.h"
#include "sluice/fs/file_io.h"
#include "sluice/predicate/predicate.h"
#include "test_util.h"

namespace sluice::orc {
namespace {

using nlohmann::json;

bool StartsWithOrcMagic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[3] = {0, 0, 0};
  in.read(head, 3);
  return in.gcount() == 3 && std::string_view(head, 3) == "ORC";
}

bool IsCorpusOrcFile(const std::string& path) {
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".orc") == 0) return true;
  return path.find("/manifest/") != std::string::npos && StartsWithOrcMagic(path);
}

struct ReadOutcome {
  Status status;
  int64_t rows = 0;
  int64_t footer_rows = 0;
};

// Reads the whole file with its own schema; `visit` sees every batch.
template <typename Visit>
ReadOutcome ReadAll(const std::string& path, const ReaderOptions& options, Visit&& visit) {
  ReadOutcome out;
  auto file = LocalFileIO()->OpenForRead(path);
  if (!file.ok()) {
    out.status = file.status();
    return out;
  }
  auto reader =
      OrcReader::Open(std::shared_ptr<RandomAccessFile>(std::move(*file)), nullptr, options);
  if (!reader.ok()) {
    out.status = reader.status();
    return out;
  }
  out.footer_rows = (*reader)->num_rows();
  ColumnBatch batch((*reader)->read_type());
  while (true) {
    auto more = (*reader)->Next(&batch);
    if (!more.ok()) {
      out.status = more.status();
      return out;
    }
    if (!*more) break;
    out.rows += batch.num_rows();
    visit(batch);
  }
  return out;
}

TEST(OrcConformanceTest, ReadsEveryCorpusOrcFile) {
  std::vector<std::string> files =
      test::ListFilesRecursive(test::CompatTablesDir(), IsCorpusOrcFile);
  ASSERT_GT(files.size(), 600u) << "corpus not found under " << test::CompatTablesDir();
  int data_files = 0;
  int manifests = 0;
  int64_t total_rows = 0;
  for (const std::string& path : files) {
    ReadOutcome r = ReadAll(path, ReaderOptions{}, [](const ColumnBatch&) {});
    ASSERT_OK(r.status) << path;
    EXPECT_EQ(r.rows, r.footer_rows) << path;
    total_rows += r.rows;
    (path.find("/manifest/") != std::string::npos ? manifests : data_files)++;
  }
  std::printf("[orc] corpus: %d data files and %d ORC manifests read, %lld rows\n", data_files,
              manifests, static_cast<long long>(total_rows));
}

// The Java-written file with TIMESTAMP(0/3/6/9) and non-legacy TIMESTAMP_LTZ(0/3/6/9) columns,
// writer zone Asia/Shanghai: wall clocks and instants must come back as Paimon wrote them.
TEST(OrcConformanceTest, TimestampsAcrossWriterTimeZone) {
  std::string path = test::CompatTablesDir() +
                     "/orc/append_with_multiple_ts_precision_and_timezone.db/"
                     "append_with_multiple_ts_precision_and_timezone/bucket-0/"
                     "data-3f58c403-1672-49a3-93c0-d90cfff9bd8a-0.orc";
  std::vector<DataField> fields;
  const char* names[] = {"ts_sec",    "ts_milli",    "ts_micro",    "ts_nano",
                         "ts_tz_sec", "ts_tz_milli", "ts_tz_micro", "ts_tz_nano"};
  const int precisions[] = {0, 3, 6, 9};
  for (int i = 0; i < 8; ++i) {
    DataField f;
    f.id = i;
    f.name = names[i];
    f.type = i < 4 ? DataType::Timestamp(precisions[i]) : DataType::TimestampLtz(precisions[i - 4]);
    fields.push_back(f);
  }
  DataTypePtr type = DataType::Row(fields);
  auto file = LocalFileIO()->OpenForRead(path);
  ASSERT_OK(file);
  auto reader = OrcReader::Open(std::shared_ptr<RandomAccessFile>(std::move(*file)), type, {});
  ASSERT_OK(reader);
  ColumnBatch batch(type);
  std::vector<std::string> got;
  while (true) {
    auto more = (*reader)->Next(&batch);
    ASSERT_OK(more);
    if (!*more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      std::string row;
      for (int c = 0; c < 8; ++c) {
        const ColumnVector* col = batch.column(c);
        row += (c ? "|" : "") + (col->IsNull(r)
                                     ? std::string("null")
                                     : col->GetValue(r).timestamp().ToString(precisions[c % 4]));
      }
      got.push_back(row);
    }
  }
  std::vector<std::string> expected = {
      "1970-01-01 00:00:01|1970-01-01 00:00:00.001|1970-01-01 00:00:00.000001|"
      "1970-01-01 00:00:00.000000001|1970-01-01 00:00:02|1970-01-01 00:00:00.002|"
      "1970-01-01 00:00:00.000002|1970-01-01 00:00:00.000000002",
      "1970-01-01 00:00:03|1970-01-01 00:00:00.003|null|1970-01-01 00:00:00.000000003|"
      "1970-01-01 00:00:04|1970-01-01 00:00:00.004|1970-01-01 00:00:00.000004|"
      "1970-01-01 00:00:00.000000004",
      "1970-01-01 00:00:05|1970-01-01 00:00:00.005|null|null|1970-01-01 00:00:06|null|"
      "1970-01-01 00:00:00.000006|null"};
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

// ---------------------------------------------------------------- ORC project examples

// The expected rows of an example, one JSON document a line, unparsed: only the rows compared
// are parsed (the larger examples hold tens of thousands of rows, most of them sampled out, and
// parsing them all took most of the test's time under the sanitizers).
std::vector<std::string> ReadExpected(const std::string& path) {
  std::vector<std::string> rows;
  gzFile gz = gzopen(path.c_str(), "rb");
  if (gz == nullptr) return rows;
  std::string content;
  char buf[1 << 16];
  int n;
  while ((n = gzread(gz, buf, sizeof(buf))) > 0) content.append(buf, static_cast<size_t>(n));
  gzclose(gz);
  size_t start = 0;
  while (start < content.size()) {
    size_t end = content.find('\n', start);
    if (end == std::string::npos) end = content.size();
    if (end > start) rows.push_back(content.substr(start, end - start));
    start = end + 1;
  }
  return rows;
}

// Java's java.sql.Timestamp#toString: trailing fraction zeros trimmed, at least one digit.
std::string JavaTimestampString(const Timestamp& ts) {
  std::string s = ts.ToString(9);
  while (s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

bool Matches(const Value& v, const DataType& type, const json& expected, std::string* why);

bool MatchesRow(const ValueList& fields, const DataType& type, const json& expected,
                std::string* why) {
  if (!expected.is_object()) {
    *why = "expected an object";
    return false;
  }
  for (int i = 0; i < type.num_fields(); ++i) {
    const DataField& f = type.fields()[static_cast<size_t>(i)];
    json e = expected.contains(f.name) ? expected[f.name] : json();
    if (!Matches(fields[static_cast<size_t>(i)], *f.type, e, why)) {
      *why = f.name + ": " + *why;
      return false;
    }
  }
  return true;
}

bool Matches(const Value& v, const DataType& type, const json& e, std::string* why) {
  if (v.is_null() || e.is_null()) {
    if (v.is_null() && e.is_null()) return true;
    *why = "null mismatch: got " + v.DebugString() + ", expected " + e.dump();
    return false;
  }
  auto fail = [&]() {
    *why = "got " + v.DebugString() + ", expected " + e.dump();
    return false;
  };
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return e.is_boolean() && e.get<bool>() == v.boolean() ? true : fail();
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return e.is_number_integer() && e.get<int64_t>() == v.AsInt64() ? true : fail();
    case TypeRoot::kFloat: {
      // Older Java Float.toString output is not always the shortest round-trip form.
      if (!e.is_number()) return fail();
      double d = e.get<double>();
      return std::fabs(d - v.float32()) <= 1e-6 * std::max(1.0, std::fabs(d)) ? true : fail();
    }
    case TypeRoot::kDouble: {
      if (!e.is_number()) return fail();
      double d = e.get<double>();
      return std::fabs(d - v.float64()) <= 1e-12 * std::max(1.0, std::fabs(d)) ? true : fail();
    }
    case TypeRoot::kDecimal: {
      if (!e.is_number()) return fail();
      double d = e.get<double>();
      double got = std::stod(v.decimal().ToString());
      return std::fabs(d - got) <= 1e-9 * std::max(1.0, std::fabs(d)) ? true : fail();
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return e.is_string() && e.get<std::string>() == v.bytes() ? true : fail();
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary: {
      if (!e.is_array() || e.size() != v.bytes().size()) return fail();
      for (size_t i = 0; i < e.size(); ++i) {
        if (e[i].get<int>() != static_cast<uint8_t>(v.bytes()[i])) return fail();
      }
      return true;
    }
    case TypeRoot::kDate:
      return e.is_string() && e.get<std::string>() == FormatDate(v.int32()) ? true : fail();
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return e.is_string() && e.get<std::string>() == JavaTimestampString(v.timestamp()) ? true
                                                                                         : fail();
    case TypeRoot::kArray: {
      const ValueList& items = v.list();
      if (!e.is_array() || e.size() != items.size()) return fail();
      for (size_t i = 0; i < items.size(); ++i) {
        if (!Matches(items[i], *type.element(), e[i], why)) return false;
      }
      return true;
    }
    case TypeRoot::kMap: {
      const ValuePairs& pairs = v.pairs();
      if (!e.is_array() || e.size() != pairs.size()) return fail();
      for (size_t i = 0; i < pairs.size(); ++i) {
        if (!Matches(pairs[i].first, *type.key(), e[i]["key"], why)) return false;
        if (!Matches(pairs[i].second, *type.value(), e[i]["value"], why)) return false;
      }
      return true;
    }
    case TypeRoot::kRow:
      return MatchesRow(v.list(), type, e, why);
    default:
      return fail();
  }
}

// Files we cannot read, and why: each must fail with exactly this kind of error.
const std::map<std::string, std::pair<StatusCode, std::string>>& ExpectedFailures() {
  static const std::map<std::string, std::pair<StatusCode, std::string>> failures = {
      {"TestOrcFile.testUnionAndTimestamp.orc",
       {StatusCode::kNotSupported, "union types are not supported"}},
      {"TestVectorOrcFile.testLzo.orc",
       {StatusCode::kNotSupported, "LZO compression is not supported"}},
      {"zero.orc", {StatusCode::kCorruption, "too small for an ORC file"}},
  };
  return failures;
}

TEST(OrcConformanceTest, ReadsOrcProjectExamples) {
  std::string dir = test::ExternalDir() + "/orc-examples";
  std::vector<std::string> files = test::ListFilesRecursive(dir, [](const std::string& p) {
    return p.size() > 4 && p.compare(p.size() - 4, 4, ".orc") == 0 &&
           p.find("/corrupt/") == std::string::npos && p.find("/encrypted/") == std::string::npos;
  });
  ASSERT_GT(files.size(), 40u) << dir;
  int read = 0, compared = 0, failed_as_expected = 0;
  for (const std::string& path : files) {
    std::string name = path.substr(path.rfind('/') + 1);
    std::string stem = name.substr(0, name.size() - 4);
    std::vector<std::string> expected = ReadExpected(dir + "/expected/" + stem + ".jsn.gz");
    size_t row = 0;
    std::string mismatch;
    ReadOutcome r = ReadAll(path, ReaderOptions{}, [&](const ColumnBatch& batch) {
      if (expected.empty() || !mismatch.empty()) return;
      for (int64_t i = 0; i < batch.num_rows() && mismatch.empty(); ++i, ++row) {
        if (row >= expected.size()) {
          mismatch = "more rows than expected";
          break;
        }
        // Every row of the first 2000, then a sample: GetRow is slow under sanitizers.
        if (row >= 2000 && row % 97 != 0) continue;
        std::string why;
        json parsed = json::parse(expected[row]);
        const json want = parsed.is_object() || batch.num_columns() != 1
                              ? std::move(parsed)
                              : json{{batch.schema()->fields()[0].name, std::move(parsed)}};
        if (!MatchesRow(batch.GetRow(i).list(), *batch.schema(), want, &why)) {
          mismatch = "row " + std::to_string(row) + ": " + why;
        }
      }
    });
    auto failure = ExpectedFailures().find(name);
    if (failure != ExpectedFailures().end()) {
      EXPECT_TRUE(test::HasError(r.status, failure->second.first, {name, failure->second.second}));
      ++failed_as_expected;
      continue;
    }
    ASSERT_OK(r.status) << name;
    EXPECT_EQ(r.rows, r.footer_rows) << name;
    ++read;
    if (!expected.empty()) {
      EXPECT_EQ(mismatch, "") << name;
      EXPECT_EQ(row, expected.size()) << name;
      ++compared;
    }
  }
  std::printf(
      "[orc] ORC examples: %d read (%d compared with expected rows), %d failed as expected\n", read,
      compared, failed_as_expected);
}

}  // namespace
}  // namespace sluice::orc

namespace sluice::orc {
namespace {

// over1k_bloom.orc carries (pre ORC-101) bloom filters: equality on a present value never prunes
// the row group holding it, and an integer absent from the file (inside the min / max range) is
// pruned by the filter alone. Strings are not pruned with pre ORC-101 filters.
TEST(OrcConformanceTest, BloomFiltersPruneEqualityOnly) {
  std::string path = test::ExternalDir() + "/orc-examples/over1k_bloom.orc";
  std::vector<std::pair<int32_t, std::string>> rows;  // (_col2, _col7)
  ReadOutcome all = ReadAll(path, ReaderOptions{}, [&](const ColumnBatch& batch) {
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      if (batch.column(2)->IsNull(i) || batch.column(7)->IsNull(i)) continue;
      rows.emplace_back(batch.column(2)->data<int32_t>()[i],
                        std::string(batch.column(7)->GetBytes(i)));
    }
  });
  ASSERT_OK(all.status);
  ASSERT_GT(rows.size(), 1000u);
  // Rows whose (_col2, _col7) satisfy `match` among those the reader returns for `predicate`.
  auto read_with = [&](PredicatePtr predicate, auto match, int64_t* skipped) {
    ReaderOptions ro;
    ro.predicate = std::move(predicate);
    int64_t n = 0;
    auto file = LocalFileIO()->OpenForRead(path);
    auto reader = OrcReader::Open(std::shared_ptr<RandomAccessFile>(std::move(*file)), nullptr, ro);
    EXPECT_OK(reader);
    ColumnBatch batch((*reader)->read_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        if (batch.column(2)->IsNull(i) || batch.column(7)->IsNull(i)) continue;
        n += match(batch.column(2)->data<int32_t>()[i], batch.column(7)->GetBytes(i));
      }
    }
    *skipped += (*reader)->row_groups_skipped() + (*reader)->stripes_skipped();
    return n;
  };
  int64_t skipped = 0;
  for (size_t i = 0; i < rows.size(); i += 97) {
    const auto& [key, name] = rows[i];
    int64_t want_name = 0, want_key = 0;
    for (const auto& r : rows) {
      want_name += r.second == name;
      want_key += r.first == key;
    }
    auto eq_str =
        Predicate::Leaf(PredicateOp::kEqual, 7, "_col7", DataType::String(), {Value::String(name)});
    EXPECT_EQ(read_with(
                  eq_str, [&](int32_t, std::string_view s) { return s == name; }, &skipped),
              want_name)
        << name;
    auto eq_int =
        Predicate::Leaf(PredicateOp::kEqual, 2, "_col2", DataType::Int(), {Value::Int32(key)});
    EXPECT_EQ(read_with(
                  eq_int, [&](int32_t k, std::string_view) { return k == key; }, &skipped),
              want_key)
        << key;
  }
  EXPECT_GT(skipped, 0);  // the filters did prune
  int64_t absent_skipped = 0;
  std::set<int32_t> keys;
  for (const auto& r : rows) keys.insert(r.first);
  int32_t missing = *keys.begin() + 1;
  while (keys.count(missing)) ++missing;
  auto absent =
      Predicate::Leaf(PredicateOp::kEqual, 2, "_col2", DataType::Int(), {Value::Int32(missing)});
  EXPECT_EQ(read_with(
                absent, [](int32_t, std::string_view) { return true; }, &absent_skipped),
            0);
  EXPECT_GT(absent_skipped, 0);
}

}  // namespace
}  // namespace sluice::orc

namespace sluice::orc {
namespace {

// A file with BLOOM_FILTER_UTF8 streams (ORC Java 1.6.11): equality on every present value of
// each string column returns all of its rows, and absent strings are pruned.
TEST(OrcConformanceTest, Utf8BloomFiltersKeepEveryMatch) {
  std::string path = test::ExternalDir() + "/orc-examples/bad_bloom_filter_1.6.11.orc";
  DataTypePtr schema;
  std::vector<std::vector<std::string>> values;  // per column, non-null strings in file order
  ReadOutcome all = ReadAll(path, ReaderOptions{}, [&](const ColumnBatch& batch) {
    schema = batch.schema();
    values.resize(static_cast<size_t>(batch.num_columns()));
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (!batch.schema()->fields()[static_cast<size_t>(c)].type->IsString()) continue;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        if (!batch.column(c)->IsNull(i)) {
          values[static_cast<size_t>(c)].emplace_back(batch.column(c)->GetBytes(i));
        }
      }
    }
  });
  ASSERT_OK(all.status);
  ASSERT_NE(schema, nullptr);
  int checked = 0;
  int64_t absent_skipped = 0;
  for (int c = 0; c < schema->num_fields(); ++c) {
    const auto& column = values[static_cast<size_t>(c)];
    if (column.empty()) continue;
    const DataField& field = schema->fields()[static_cast<size_t>(c)];
    auto matches = [&](const std::string& v, int64_t* skipped) {
      ReaderOptions ro;
      ro.predicate =
          Predicate::Leaf(PredicateOp::kEqual, c, field.name, field.type, {Value::String(v)});
      auto file = LocalFileIO()->OpenForRead(path);
      auto reader =
          OrcReader::Open(std::shared_ptr<RandomAccessFile>(std::move(*file)), nullptr, ro);
      EXPECT_OK(reader);
      ColumnBatch batch((*reader)->read_type());
      int64_t n = 0;
      while (true) {
        auto more = (*reader)->Next(&batch);
        EXPECT_OK(more);
        if (!more.ok() || !*more) break;
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          n += !batch.column(c)->IsNull(i) && batch.column(c)->GetBytes(i) == v;
        }
      }
      *skipped += (*reader)->row_groups_skipped() + (*reader)->stripes_skipped();
      return n;
    };
    for (size_t i = 0; i < column.size(); i += std::max<size_t>(1, column.size() / 25)) {
      int64_t want = std::count(column.begin(), column.end(), column[i]);
      int64_t ignored = 0;
      EXPECT_EQ(matches(column[i], &ignored), want) << field.name << " = " << column[i];
      ++checked;
    }
    // Just above the minimum: inside the statistics' range, so only the filter can prune it.
    std::string probe = *std::min_element(column.begin(), column.end()) + "\x01";
    if (std::find(column.begin(), column.end(), probe) == column.end()) {
      EXPECT_EQ(matches(probe, &absent_skipped), 0);
    }
  }
  EXPECT_GT(checked, 0);
  EXPECT_GT(absent_skipped, 0);
}

}  // namespace
}  // namespace sluice::orc
