#include "parquet_read_util.h"

#include <cmath>
#include <cstdio>

#include "sluice/column_batch.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/fs/file_io.h"

namespace sluice::test {

Result<FileContent> ReadParquetFile(const std::string& path, DataTypePtr read_type,
                                    const ReaderOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> f, LocalFileIO()->OpenForRead(path));
  std::shared_ptr<RandomAccessFile> file = std::move(f);
  FileContent out;
  if (read_type == nullptr) {
    SLUICE_ASSIGN_OR_RETURN(read_type, parquet::ReadParquetFileType(*file));
  }
  out.type = read_type;
  SLUICE_ASSIGN_OR_RETURN(auto reader, parquet::OpenParquetReader(file, read_type, options));
  out.num_rows = reader->num_rows();
  ColumnBatch batch(read_type);
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) out.rows.push_back(batch.GetRow(i));
  }
  return out;
}

namespace {

std::string Hex(const std::string& s) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

std::string Double(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", d);
  return buf;
}

}  // namespace

std::string CanonicalText(const Value& v, const DataType& type) {
  if (v.is_null()) return "NULL";
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return v.boolean() ? "true" : "false";
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kTime:
      return std::to_string(v.AsInt64());
    case TypeRoot::kFloat:
      return Double(static_cast<double>(v.float32()));
    case TypeRoot::kDouble:
      return Double(v.float64());
    case TypeRoot::kDecimal:
      return v.decimal().ToString();
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return v.bytes();
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
      return Hex(v.bytes());
    case TypeRoot::kDate:
      return FormatDate(v.int32());
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      if (type.precision() > 6) {
        // DuckDB reads nanosecond timestamps (INT96 included) as microseconds truncated toward
        // zero; compare at that resolution.
        __int128 nanos = static_cast<__int128>(v.timestamp().millisecond) * 1000000 +
                         v.timestamp().nano_of_millisecond;
        __int128 micros = nanos / 1000;
        if (micros >= INT64_MIN && micros <= INT64_MAX) {
          return std::to_string(static_cast<int64_t>(micros));
        }
        return "out-of-range";
      }
      // In 128 bits: INT96 values far outside the int64 microsecond range exist.
      __int128 micros = static_cast<__int128>(v.timestamp().millisecond) * 1000 +
                        v.timestamp().nano_of_millisecond / 1000;
      if (micros >= INT64_MIN && micros <= INT64_MAX) {
        return std::to_string(static_cast<int64_t>(micros));
      }
      return "out-of-range";
    }
    case TypeRoot::kArray:
    case TypeRoot::kVector: {
      std::string out = "[";
      const ValueList& l = v.list();
      for (size_t i = 0; i < l.size(); ++i) {
        if (i > 0) out += ", ";
        out += CanonicalText(l[i], *type.element());
      }
      return out + "]";
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      std::string out = "{";
      const ValuePairs& p = v.pairs();
      DataTypePtr vt = type.root() == TypeRoot::kMultiset ? DataType::Int() : type.value();
      for (size_t i = 0; i < p.size(); ++i) {
        if (i > 0) out += ", ";
        out += CanonicalText(p[i].first, *type.key()) + "=" + CanonicalText(p[i].second, *vt);
      }
      return out + "}";
    }
    case TypeRoot::kRow: {
      std::string out = "{";
      const ValueList& l = v.list();
      for (size_t i = 0; i < l.size(); ++i) {
        if (i > 0) out += ", ";
        out += CanonicalText(l[i], *type.fields()[i].type);
      }
      return out + "}";
    }
    default:
      return "?";
  }
}

std::string DuckDbCanonicalSql(const std::string& expr, const DataType& type, int depth) {
  std::string e = expr;
  std::string body;
  std::string var = "e" + std::to_string(depth);
  switch (type.root()) {
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      body = "CASE WHEN isnan(" + e + "::DOUBLE) THEN 'nan' WHEN isinf(" + e +
             "::DOUBLE) THEN (CASE WHEN " + e +
             " > 0 THEN 'inf' ELSE '-inf' END) ELSE printf('%.17g', " + e + "::DOUBLE) END";
      break;
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
      body = "upper(hex(" + e + "))";
      break;
    case TypeRoot::kTime:
      body = "CAST(CAST(epoch_us(DATE '1970-01-01' + " + e + ") // 1000 AS BIGINT) AS VARCHAR)";
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      body = "CAST(epoch_us(" + e + ") AS VARCHAR)";
      break;
    case TypeRoot::kArray:
    case TypeRoot::kVector:
      body = "'[' || array_to_string(list_transform(" + e + ", lambda " + var + ": " +
             DuckDbCanonicalSql(var, *type.element(), depth + 1) + "), ', ') || ']'";
      break;
    case TypeRoot::kMap:
      body = "'{' || array_to_string(list_transform(map_entries(" + e + "), lambda " + var + ": " +
             DuckDbCanonicalSql(var + ".key", *type.key(), depth + 1) + " || '=' || " +
             DuckDbCanonicalSql(var + ".value", *type.value(), depth + 1) + "), ', ') || '}'";
      break;
    case TypeRoot::kRow: {
      body = "CASE WHEN (" + e + ") IS NULL THEN NULL ELSE '{' || ";
      for (int i = 0; i < type.num_fields(); ++i) {
        if (i > 0) body += " || ', ' || ";
        body += DuckDbCanonicalSql("struct_extract(" + e + ", '" + type.fields()[i].name + "')",
                                   *type.fields()[i].type, depth + 1);
      }
      if (type.num_fields() == 0) body += "''";
      body += " || '}' END";
      break;
    }
    case TypeRoot::kDecimal:
      // DuckDB prints DECIMAL(2, 2) 0.22 as ".22".
      body = "regexp_replace(CAST(" + e + " AS VARCHAR), '^(-?)\\.', '\\10.')";
      break;
    default:
      body = "CAST(" + e + " AS VARCHAR)";
      break;
  }
  return "COALESCE(" + body + ", 'NULL')";
}

}  // namespace sluice::test
