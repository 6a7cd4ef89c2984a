#include "sluice/meta/file_paths.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "sluice/base/string_util.h"
#include "sluice/fs/file_io.h"
#include "sluice/types/java_number_text.h"

namespace sluice {

namespace {

bool NeedsEscaping(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return true;
  switch (c) {
    case '"':
    case '#':
    case '%':
    case '\'':
    case '*':
    case '/':
    case ':':
    case '=':
    case '?':
    case '\\':
    case '{':
    case '}':
    case '[':
    case ']':
    case '^':
      return true;
    default:
      return false;
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string Numbered(std::string_view prefix, std::string_view uuid, int64_t n) {
  std::string out(prefix);
  out.append(uuid);
  out.push_back('-');
  out.append(std::to_string(n));
  return out;
}

// Hadoop compression names and their file extensions (Java HadoopCompressionType).
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kCompressionExtensions = {{
    {"gzip", "gz"},
    {"bzip2", "bz2"},
    {"deflate", "deflate"},
    {"snappy", "snappy"},
    {"lz4", "lz4"},
    {"zstd", "zst"},
}};

bool IsCompressionExtension(std::string_view ext) {
  const std::string lower = AsciiToLower(ext);
  return std::any_of(kCompressionExtensions.begin(), kCompressionExtensions.end(),
                     [&](const auto& entry) { return entry.second == lower; });
}

// Proleptic Gregorian civil date of a day count (Howard Hinnant's algorithm).
void CivilFromDays(int64_t days, int64_t* year, int* month, int* day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  *month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  *year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

std::string JavaLocalDateTimeString(const Timestamp& ts) {
  const int64_t days = FloorDiv(ts.millisecond, 86400000);
  const int64_t ms_of_day = ts.millisecond - days * 86400000;
  int64_t year = 0;
  int month = 0;
  int day = 0;
  CivilFromDays(days, &year, &month, &day);
  const int hour = static_cast<int>(ms_of_day / 3600000);
  const int minute = static_cast<int>(ms_of_day / 60000 % 60);
  const int second = static_cast<int>(ms_of_day / 1000 % 60);
  const int64_t nanos = ms_of_day % 1000 * 1000000 + ts.nano_of_millisecond;
  char buf[96];
  std::string out;
  // LocalDate.toString: 4-digit years zero-padded (with '-' when negative), '+' above 9999.
  if (year > 9999) {
    out = "+" + std::to_string(year);
  } else if (year < 0) {
    std::snprintf(buf, sizeof(buf), "-%04lld", static_cast<long long>(-year));
    out = buf;
  } else {
    std::snprintf(buf, sizeof(buf), "%04lld", static_cast<long long>(year));
    out = buf;
  }
  std::snprintf(buf, sizeof(buf), "-%02d-%02dT%02d:%02d", month, day, hour, minute);
  out += buf;
  if (second > 0 || nanos > 0) {
    std::snprintf(buf, sizeof(buf), ":%02d", second);
    out += buf;
    if (nanos > 0) {
      if (nanos % 1000000 == 0) {
        std::snprintf(buf, sizeof(buf), ".%03lld", static_cast<long long>(nanos / 1000000));
      } else if (nanos % 1000 == 0) {
        std::snprintf(buf, sizeof(buf), ".%06lld", static_cast<long long>(nanos / 1000));
      } else {
        std::snprintf(buf, sizeof(buf), ".%09lld", static_cast<long long>(nanos));
      }
      out += buf;
    }
  }
  return out;
}

Result<std::optional<std::string>> LegacyPartitionValueText(const Value& value,
                                                            const DataType& type) {
  if (value.is_null()) return std::optional<std::string>();
  auto text = [](std::string s) { return std::optional<std::string>(std::move(s)); };
  switch (type.root()) {
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      if (value.kind() == Value::Kind::kString) return text(value.bytes());
      break;
    case TypeRoot::kBoolean:
      if (value.kind() == Value::Kind::kBoolean) return text(value.boolean() ? "true" : "false");
      break;
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      if (value.kind() >= Value::Kind::kInt8 && value.kind() <= Value::Kind::kInt64) {
        return text(std::to_string(value.AsInt64()));
      }
      break;
    case TypeRoot::kFloat:
      if (value.kind() == Value::Kind::kFloat) return text(JavaFloatToString(value.float32()));
      break;
    case TypeRoot::kDouble:
      if (value.kind() == Value::Kind::kDouble) return text(JavaDoubleToString(value.float64()));
      break;
    case TypeRoot::kDecimal:
      if (value.kind() == Value::Kind::kDecimal) return text(value.decimal().ToString());
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      if (value.kind() == Value::Kind::kTimestamp) {
        return text(JavaLocalDateTimeString(value.timestamp()));
      }
      break;
    default:
      return Status::NotSupported("partition values of type " + type.ToString() +
                                  " have no stable directory name");
  }
  return Status::InvalidArgument("partition value " + value.DebugString() +
                                 " does not match its type " + type.ToString());
}

std::string NormalizeBranch(std::string_view branch) {
  return IsJavaBlank(branch) ? std::string(kMainBranch) : std::string(branch);
}

bool IsMainBranch(std::string_view branch) { return branch == kMainBranch; }

std::string BranchDir(std::string_view table) { return JoinPath(table, "branch"); }

std::string BranchPath(std::string_view table, std::string_view branch) {
  if (IsMainBranch(branch)) return std::string(table);
  return JoinPath(BranchDir(table), std::string(kBranchPrefix) + std::string(branch));
}

std::string SchemaDir(std::string_view branch_path) { return JoinPath(branch_path, "schema"); }

std::string SchemaPath(std::string_view branch_path, int64_t schema_id) {
  return JoinPath(SchemaDir(branch_path), std::string(kSchemaPrefix) + std::to_string(schema_id));
}

std::string SnapshotDir(std::string_view branch_path) { return JoinPath(branch_path, "snapshot"); }

std::string SnapshotPath(std::string_view branch_path, int64_t snapshot_id) {
  return JoinPath(SnapshotDir(branch_path),
                  std::string(kSnapshotPrefix) + std::to_string(snapshot_id));
}

std::string TagDir(std::string_view branch_path) { return JoinPath(branch_path, "tag"); }

std::string TagPath(std::string_view branch_path, std::string_view tag_name) {
  return JoinPath(TagDir(branch_path), std::string(kTagPrefix) + std::string(tag_name));
}

std::string ChangelogDir(std::string_view branch_path) {
  return JoinPath(branch_path, "changelog");
}

std::string ChangelogPath(std::string_view branch_path, int64_t snapshot_id) {
  return JoinPath(ChangelogDir(branch_path),
                  std::string(kChangelogPrefix) + std::to_string(snapshot_id));
}

std::string ConsumerDir(std::string_view branch_path) { return JoinPath(branch_path, "consumer"); }

std::string ConsumerPath(std::string_view branch_path, std::string_view consumer_id) {
  return JoinPath(ConsumerDir(branch_path),
                  std::string(kConsumerPrefix) + std::string(consumer_id));
}

std::string LatestHintPath(std::string_view dir) { return JoinPath(dir, kLatestHint); }

std::string EarliestHintPath(std::string_view dir) { return JoinPath(dir, kEarliestHint); }

std::string ManifestDir(std::string_view table) { return JoinPath(table, "manifest"); }

std::string ManifestFilePath(std::string_view table, std::string_view file_name) {
  return JoinPath(ManifestDir(table), file_name);
}

std::string IndexDir(std::string_view table) { return JoinPath(table, "index"); }

std::string IndexFilePath(std::string_view table, std::string_view file_name) {
  return JoinPath(IndexDir(table), file_name);
}

std::string StatisticsDir(std::string_view table) { return JoinPath(table, "statistics"); }

std::string StatisticsFilePath(std::string_view table, std::string_view file_name) {
  return JoinPath(StatisticsDir(table), file_name);
}

std::string ManifestFileName(std::string_view uuid, int64_t n) {
  return Numbered(kManifestPrefix, uuid, n);
}

std::string ManifestListFileName(std::string_view uuid, int64_t n) {
  return Numbered(kManifestListPrefix, uuid, n);
}

std::string IndexManifestFileName(std::string_view uuid, int64_t n) {
  return Numbered(kIndexManifestPrefix, uuid, n);
}

std::string IndexFileName(std::string_view uuid, int64_t n) {
  return Numbered(kIndexPrefix, uuid, n);
}

std::string StatisticsFileName(std::string_view uuid, int64_t n) {
  return Numbered(kStatisticsPrefix, uuid, n);
}

std::optional<int64_t> ParseHintContent(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  // Accumulate negatively so that INT64_MIN parses, as in Java.
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const int digit = c - '0';
    if (value < (std::numeric_limits<int64_t>::min() + digit) / 10) return std::nullopt;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == std::numeric_limits<int64_t>::min()) return std::nullopt;
    value = -value;
  }
  return value;
}

std::optional<int64_t> ParseVersionedFileName(std::string_view file_name, std::string_view prefix) {
  if (file_name.substr(0, prefix.size()) != prefix) return std::nullopt;
  return ParseHintContent(file_name.substr(prefix.size()));
}

std::string EscapePartitionPathName(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (NeedsEscaping(c)) {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

std::string UnescapePartitionPathName(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const int hi = HexValue(s[i + 1]);
      const int lo = HexValue(s[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  return out;
}

std::string PartitionValueText(const std::optional<std::string>& value,
                               std::string_view default_name) {
  if (!value || IsJavaBlank(*value)) return std::string(default_name);
  return *value;
}

std::string PartitionPath(
    const std::vector<std::pair<std::string, std::optional<std::string>>>& spec,
    std::string_view default_name) {
  std::string out;
  for (const auto& [key, value] : spec) {
    out += EscapePartitionPathName(key);
    out.push_back('=');
    out += EscapePartitionPathName(PartitionValueText(value, default_name));
    out.push_back('/');
  }
  return out;
}

std::string BucketDirName(int32_t bucket) {
  return std::string(kBucketPrefix) +
         (bucket == kPostponeBucket ? std::string("postpone") : std::to_string(bucket));
}

std::string RelativeBucketPath(std::string_view partition_path, int32_t bucket,
                               std::string_view data_path_directory) {
  std::string path = std::string(partition_path) + BucketDirName(bucket);
  if (!data_path_directory.empty()) path = JoinPath(data_path_directory, path);
  return path;
}

std::string BucketPath(std::string_view table, std::string_view partition_path, int32_t bucket,
                       std::string_view data_path_directory) {
  return JoinPath(table, RelativeBucketPath(partition_path, bucket, data_path_directory));
}

std::string DataFilePath(std::string_view bucket_path, std::string_view file_name,
                         const std::optional<std::string>& external_path) {
  if (external_path) return *external_path;
  return JoinPath(bucket_path, file_name);
}

std::string DataFileIndexPath(std::string_view data_file_path) {
  return std::string(data_file_path) + std::string(kFileIndexSuffix);
}

std::string CompressionFileExtension(std::string_view compression) {
  if (compression.empty()) return "";
  const std::string lower = AsciiToLower(compression);
  if (lower == "none") return "";
  for (const auto& [name, ext] : kCompressionExtensions) {
    if (name == lower) return std::string(ext);
  }
  return std::string(compression);
}

std::string DataFileExtension(std::string_view format, std::string_view compression,
                              bool suffix_include_compression) {
  const std::string ext = CompressionFileExtension(compression);
  const std::string lower_format = AsciiToLower(format);
  if (!ext.empty() && (lower_format == "json" || lower_format == "csv")) {
    return "." + std::string(format) + "." + ext;
  }
  if (!ext.empty() && suffix_include_compression) {
    return "." + ext + "." + std::string(format);
  }
  return "." + std::string(format);
}

std::string DataFileName(std::string_view prefix, std::string_view uuid, int64_t n,
                         std::string_view extension) {
  return Numbered(prefix, uuid, n) + std::string(extension);
}

std::optional<std::string> FormatFromFileName(std::string_view file_name) {
  const size_t last = file_name.rfind('.');
  if (last == std::string_view::npos) return std::nullopt;
  std::string_view ext = file_name.substr(last + 1);
  if (IsCompressionExtension(ext)) {
    if (last == 0) return std::nullopt;
    const size_t before = file_name.rfind('.', last - 1);
    if (before == std::string_view::npos) return std::nullopt;
    return std::string(file_name.substr(before + 1, last - before - 1));
  }
  return std::string(ext);
}

}  // namespace sluice
