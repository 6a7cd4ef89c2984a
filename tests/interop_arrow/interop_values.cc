#include "interop_values.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/cli_test_util.h"
#include "sluice/column_batch.h"
#include "sluice/format/orc/orc_reader.h"
#include "sluice/format/parquet/parquet_file_format.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/fs/file_io.h"
#include "sluice/types/value_comparator.h"
#include "sluice/value_json.h"
#include "test_util.h"

namespace sluice::test {

namespace {

Status Bad(const Json& json, const DataType& type, const std::string& why) {
  return Status::InvalidArgument("canonical value " + json.dump() + " for " + type.ToString() +
                                 ": " + why);
}

Result<int64_t> Integer(const Json& json, const DataType& type, int64_t lo, int64_t hi) {
  if (!json.is_number_integer()) return Bad(json, type, "not an integer");
  if (json.is_number_unsigned() && json.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return Bad(json, type, "out of range");
  }
  int64_t v = json.get<int64_t>();
  if (v < lo || v > hi) return Bad(json, type, "out of range");
  return v;
}

Result<double> Floating(const Json& json, const DataType& type) {
  if (!json.is_string()) return Bad(json, type, "not a float.hex() string");
  const std::string& text = json.get_ref<const std::string&>();
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return Bad(json, type, "not a float.hex() string");
  return v;
}

// "-12.340" as the unscaled value at `scale`.
Result<int128_t> DecimalUnscaled(const Json& json, const DataType& type) {
  if (!json.is_string()) return Bad(json, type, "not a decimal string");
  const std::string& text = json.get_ref<const std::string&>();
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128_t unscaled = 0;
  int fraction_digits = -1;
  bool any_digit = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.' && fraction_digits < 0) {
      fraction_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') return Bad(json, type, "not a decimal string");
    any_digit = true;
    if (fraction_digits >= 0 && ++fraction_digits > type.scale()) {
      if (c != '0') return Bad(json, type, "more fraction digits than the scale");
      continue;
    }
    unscaled = unscaled * 10 + (c - '0');
  }
  if (!any_digit) return Bad(json, type, "not a decimal string");
  for (int d = std::max(fraction_digits, 0); d < type.scale(); ++d) unscaled *= 10;
  return negative ? -unscaled : unscaled;
}

Result<std::string> HexBytes(const Json& json, const DataType& type) {
  if (!json.is_object() || !json.contains("hex") || !json["hex"].is_string()) {
    return Bad(json, type, "not {\"hex\": ...}");
  }
  const std::string& hex = json["hex"].get_ref<const std::string&>();
  if (hex.size() % 2 != 0) return Bad(json, type, "odd hex length");
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = nibble(hex[i]);
    int lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return Bad(json, type, "bad hex digit");
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

}  // namespace

Result<Value> DecodeCanonical(const Json& json, const DataType& type,
                              const CanonicalOptions& options) {
  if (json.is_null()) return Value::Null();
  switch (type.root()) {
    case TypeRoot::kBoolean:
      if (!json.is_boolean()) return Bad(json, type, "not a boolean");
      return Value::Boolean(json.get<bool>());
    case TypeRoot::kTinyInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, Integer(json, type, INT8_MIN, INT8_MAX));
      return Value::Int8(static_cast<int8_t>(v));
    }
    case TypeRoot::kSmallInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, Integer(json, type, INT16_MIN, INT16_MAX));
      return Value::Int16(static_cast<int16_t>(v));
    }
    case TypeRoot::kInt:
    case TypeRoot::kDate: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, Integer(json, type, INT32_MIN, INT32_MAX));
      return Value::Int32(static_cast<int32_t>(v));
    }
    case TypeRoot::kBigInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, Integer(json, type, INT64_MIN, INT64_MAX));
      return Value::Int64(v);
    }
    case TypeRoot::kTime: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, Integer(json, type, 0, 86'400'000'000'000LL));
      // Paimon's TIME holds milliseconds: finer units are truncated, as Java reads them.
      return Value::Int32(static_cast<int32_t>(v * options.time_unit_nanos / 1'000'000));
    }
    case TypeRoot::kFloat: {
      SLUICE_ASSIGN_OR_RETURN(double v, Floating(json, type));
      return Value::Float(static_cast<float>(v));
    }
    case TypeRoot::kDouble: {
      SLUICE_ASSIGN_OR_RETURN(double v, Floating(json, type));
      return Value::Double(v);
    }
    case TypeRoot::kDecimal: {
      SLUICE_ASSIGN_OR_RETURN(int128_t unscaled, DecimalUnscaled(json, type));
      return Value::FromDecimal(Decimal{unscaled, type.precision(), type.scale()});
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      if (!json.is_string()) return Bad(json, type, "not a string");
      return Value::String(json.get<std::string>());
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob: {
      SLUICE_ASSIGN_OR_RETURN(std::string bytes, HexBytes(json, type));
      return Value::Binary(std::move(bytes));
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      if (!json.is_array() || json.size() != 2) return Bad(json, type, "not [millis, nanos]");
      SLUICE_ASSIGN_OR_RETURN(int64_t millis, Integer(json[0], type, INT64_MIN, INT64_MAX));
      SLUICE_ASSIGN_OR_RETURN(int64_t nanos, Integer(json[1], type, 0, 999'999));
      return Value::FromTimestamp(Timestamp{millis, static_cast<int32_t>(nanos)});
    }
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      if (!json.is_array()) return Bad(json, type, "not an array");
      ValueList items;
      for (const Json& item : json) {
        SLUICE_ASSIGN_OR_RETURN(Value v, DecodeCanonical(item, *type.element(), options));
        items.push_back(std::move(v));
      }
      return Value::Array(std::move(items));
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      if (!json.is_array()) return Bad(json, type, "not an array of pairs");
      static const DataTypePtr kCount = DataType::Int(false);
      const DataType& key = type.root() == TypeRoot::kMap ? *type.key() : *type.element();
      const DataType& value = type.root() == TypeRoot::kMap ? *type.value() : *kCount;
      ValuePairs pairs;
      for (const Json& pair : json) {
        if (!pair.is_array() || pair.size() != 2) return Bad(json, type, "not an array of pairs");
        SLUICE_ASSIGN_OR_RETURN(Value k, DecodeCanonical(pair[0], key, options));
        SLUICE_ASSIGN_OR_RETURN(Value v, DecodeCanonical(pair[1], value, options));
        pairs.emplace_back(std::move(k), std::move(v));
      }
      return Value::Map(std::move(pairs));
    }
    case TypeRoot::kRow: {
      if (!json.is_array() || json.size() != type.fields().size()) {
        return Bad(json, type,
                   "not an array of " + std::to_string(type.fields().size()) + " field values");
      }
      ValueList fields;
      for (size_t i = 0; i < type.fields().size(); ++i) {
        SLUICE_ASSIGN_OR_RETURN(Value v, DecodeCanonical(json[i], *type.fields()[i].type, options));
        fields.push_back(std::move(v));
      }
      return Value::Row(std::move(fields));
    }
    case TypeRoot::kVariant:
      break;
  }
  return Bad(json, type, "type not covered by the canonical form");
}

int64_t CountLeafValues(const Value& v, const DataType& type) {
  if (v.is_null()) return 1;
  switch (type.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      int64_t n = 0;
      for (const Value& item : v.list()) n += CountLeafValues(item, *type.element());
      return std::max<int64_t>(n, 1);
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      static const DataTypePtr kCount = DataType::Int(false);
      const DataType& key = type.root() == TypeRoot::kMap ? *type.key() : *type.element();
      const DataType& value = type.root() == TypeRoot::kMap ? *type.value() : *kCount;
      int64_t n = 0;
      for (const auto& [k, val] : v.pairs()) {
        n += CountLeafValues(k, key) + CountLeafValues(val, value);
      }
      return std::max<int64_t>(n, 1);
    }
    case TypeRoot::kRow: {
      int64_t n = 0;
      for (size_t i = 0; i < v.list().size() && i < type.fields().size(); ++i) {
        n += CountLeafValues(v.list()[i], *type.fields()[i].type);
      }
      return std::max<int64_t>(n, 1);
    }
    default:
      return 1;
  }
}

Result<std::vector<Json>> ReadJsonLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot open " + path);
  std::vector<Json> out;
  std::string line;
  int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    auto json = ParseJson(line);
    if (!json.ok()) return json.status().WithContext(path + " line " + std::to_string(number));
    out.push_back(std::move(*json));
  }
  return out;
}

Result<FileRows> ReadDataFile(const std::string& path) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> opened,
                          LocalFileIO()->OpenForRead(path));
  std::shared_ptr<RandomAccessFile> file = std::move(opened);
  FileRows out;
  std::unique_ptr<FormatReader> reader;
  if (path.ends_with(".parquet")) {
    SLUICE_ASSIGN_OR_RETURN(out.type, parquet::ReadParquetFileType(*file));
    SLUICE_ASSIGN_OR_RETURN(reader, parquet::OpenParquetReader(file, out.type, ReaderOptions()));
  } else if (path.ends_with(".orc")) {
    SLUICE_ASSIGN_OR_RETURN(auto orc_reader, orc::OrcReader::Open(file, nullptr, ReaderOptions()));
    out.type = orc_reader->read_type();
    reader = std::move(orc_reader);
  } else {
    return Status::InvalidArgument("not a .parquet or .orc file: " + path);
  }
  ColumnBatch batch(out.type);
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) out.rows.push_back(batch.GetRow(i));
  }
  if (static_cast<int64_t>(out.rows.size()) != reader->num_rows()) {
    return Status::Corruption(path + ": read " + std::to_string(out.rows.size()) +
                              " rows, the footer says " + std::to_string(reader->num_rows()));
  }
  return out;
}

std::string PythonOf(const std::string& name, const char* env_var) {
  const char* env = std::getenv(env_var);
  std::string python =
      env != nullptr && *env != '\0' ? env : SourceDir() + "/build/pyenv/" + name + "/bin/python";
  EXPECT_TRUE(std::filesystem::exists(python))
      << python << " is missing: scripts/setup.sh creates the pinned Python environments";
  return python;
}

std::string RunPythonScript(const std::string& python, const std::string& script,
                            const std::vector<std::string>& args) {
  std::string command =
      "'" + python + "' '" + SourceDir() + "/tests/interop_arrow/python/" + script + "'";
  for (const std::string& a : args) command += " '" + a + "'";
  CommandResult result = RunShellCommand(command + " 2>&1");
  EXPECT_EQ(result.exit_code, 0) << command << ":\n" << result.out;
  return result.out;
}

CaseLedger::CaseLedger(std::string title, std::map<std::string, std::string> expected_failures)
    : title_(std::move(title)), expected_failures_(std::move(expected_failures)) {}

void CaseLedger::AddCase(const std::string& name, int64_t values,
                         const std::vector<std::string>& mismatches, const std::string& error) {
  Case c;
  c.name = name;
  c.values = values;
  c.mismatches = static_cast<int64_t>(mismatches.size());
  c.error = error;
  for (size_t i = 0; i < mismatches.size() && i < 5; ++i)
    c.first_mismatches.push_back(mismatches[i]);
  values_ += values;
  cases_.push_back(std::move(c));
}

void CaseLedger::Report() const {
  int64_t mismatches = 0;
  int64_t unexpected = 0;
  int64_t expected_failed = 0;
  std::set<std::string> seen;
  std::string list;
  for (const Case& c : cases_) {
    seen.insert(c.name);
    const bool failed = c.mismatches > 0 || !c.error.empty();
    auto listed = expected_failures_.find(c.name);
    if (listed != expected_failures_.end()) {
      if (failed) {
        ++expected_failed;
        list += "  " + c.name + ": " + listed->second + " (" + std::to_string(c.mismatches) +
                " mismatches" + (c.error.empty() ? "" : ", error: " + c.error) + ")\n";
      } else {
        ADD_FAILURE() << title_ << ": " << c.name
                      << " is on the expected-failure list but passes now: remove it ("
                      << listed->second << ")";
      }
      continue;
    }
    mismatches += c.mismatches;
    if (!failed) continue;
    ++unexpected;
    std::string detail = c.error;
    for (const std::string& m : c.first_mismatches) detail += "\n    " + m;
    ADD_FAILURE() << title_ << ": " << c.name << ": " << c.mismatches << " mismatches of "
                  << c.values << " values" << (detail.empty() ? "" : ":\n    " + detail);
  }
  for (const auto& [name, reason] : expected_failures_) {
    if (seen.count(name) == 0) {
      ADD_FAILURE() << title_ << ": expected failure " << name << " names no case run";
    }
  }
  std::cout << "INTEROP " << title_ << ": cases=" << cases_.size() << " values=" << values_
            << " mismatches=" << mismatches << " unexpected_failures=" << unexpected
            << " expected_failures=" << expected_failed << "\n";
  if (!list.empty()) std::cout << "INTEROP " << title_ << " expected failures:\n" << list;
}

int64_t CompareRows(const DataType& row_type, const std::vector<Value>& expected,
                    const std::vector<Value>& actual, std::vector<std::string>* mismatches) {
  if (expected.size() != actual.size()) {
    mismatches->push_back("row count: expected " + std::to_string(expected.size()) + ", got " +
                          std::to_string(actual.size()));
  }
  int64_t values = 0;
  const size_t rows = std::min(expected.size(), actual.size());
  for (size_t r = 0; r < rows; ++r) {
    const ValueList& want = expected[r].list();
    const ValueList& have = actual[r].list();
    for (size_t c = 0; c < row_type.fields().size(); ++c) {
      const DataType& type = *row_type.fields()[c].type;
      values += CountLeafValues(want[c], type);
      if (!ValuesEqual(want[c], have[c], type)) {
        mismatches->push_back("row " + std::to_string(r) + " column " + row_type.fields()[c].name +
                              " (" + type.ToString() + "): expected " + ValueToJson(want[c], type) +
                              ", got " + ValueToJson(have[c], type));
      }
    }
  }
  return values;
}

std::vector<std::string> SortedRowJson(const DataType& row_type, const std::vector<Value>& rows) {
  std::vector<std::string> out;
  out.reserve(rows.size());
  for (const Value& row : rows) out.push_back(ValueToJson(row, row_type));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sluice::test
