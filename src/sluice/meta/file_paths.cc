#include "sluice/meta/file_paths.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include "sluice/fs/file_io.h"

namespace sluice {

namespace {

// Java Character.isWhitespace for ASCII.
bool IsJavaWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' ||
         (c >= 0x1C && c <= 0x1F);
}

bool IsBlank(std::string_view s) { return std::all_of(s.begin(), s.end(), IsJavaWhitespace); }

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

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
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
  const std::string lower = Lower(ext);
  return std::any_of(kCompressionExtensions.begin(), kCompressionExtensions.end(),
                     [&](const auto& entry) { return entry.second == lower; });
}

}  // namespace

std::string NormalizeBranch(std::string_view branch) {
  return IsBlank(branch) ? std::string(kMainBranch) : std::string(branch);
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
  if (!value || IsBlank(*value)) return std::string(default_name);
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
  const std::string lower = Lower(compression);
  if (lower == "none") return "";
  for (const auto& [name, ext] : kCompressionExtensions) {
    if (name == lower) return std::string(ext);
  }
  return std::string(compression);
}

std::string DataFileExtension(std::string_view format, std::string_view compression,
                              bool suffix_include_compression) {
  const std::string ext = CompressionFileExtension(compression);
  const std::string lower_format = Lower(format);
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
