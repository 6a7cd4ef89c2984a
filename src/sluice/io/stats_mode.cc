#include "sluice/io/stats_mode.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "sluice/base/string_util.h"

namespace sluice {

namespace {

// Decodes the UTF-8 code point at s[*pos] and advances *pos. Malformed bytes are taken as
// single code points (their byte value), which keeps the walk total.
uint32_t NextCodePoint(std::string_view s, size_t* pos) {
  const auto b0 = static_cast<unsigned char>(s[*pos]);
  int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 1;
  if (*pos + static_cast<size_t>(len) > s.size()) len = 1;
  uint32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1Fu) : len == 3 ? (b0 & 0x0Fu) : (b0 & 0x07u);
  for (int i = 1; i < len; ++i) cp = (cp << 6) | (static_cast<unsigned char>(s[*pos + i]) & 0x3Fu);
  *pos += static_cast<size_t>(len);
  return cp;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The first n code points of `s` (BinaryString.substring(0, n)), and whether `s` had more.
std::vector<uint32_t> CodePointPrefix(std::string_view s, int32_t n, bool* longer) {
  std::vector<uint32_t> cps;
  size_t pos = 0;
  while (pos < s.size() && static_cast<int32_t>(cps.size()) < n)
    cps.push_back(NextCodePoint(s, &pos));
  *longer = pos < s.size();
  return cps;
}

std::string EncodeCodePoints(const std::vector<uint32_t>& cps, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) AppendUtf8(cps[i], &out);
  return out;
}

std::string TruncateStringMin(const std::string& s, int32_t n) {
  bool longer = false;
  std::vector<uint32_t> cps = CodePointPrefix(s, n, &longer);
  return longer ? EncodeCodePoints(cps, cps.size()) : s;
}

// nullopt when no code point of the prefix can be incremented.
std::optional<std::string> TruncateStringMax(const std::string& s, int32_t n) {
  bool longer = false;
  std::vector<uint32_t> cps = CodePointPrefix(s, n, &longer);
  if (!longer) return s;
  for (size_t i = cps.size(); i-- > 0;) {
    if (cps[i] + 1 <= 0x10FFFF) {
      cps[i] += 1;
      return EncodeCodePoints(cps, i + 1);
    }
  }
  return std::nullopt;
}

std::optional<std::string> TruncateBinaryMax(const std::string& s, int32_t n) {
  if (static_cast<int32_t>(s.size()) <= n) return s;
  std::string out = s.substr(0, static_cast<size_t>(n));
  for (size_t i = out.size(); i-- > 0;) {
    if (static_cast<unsigned char>(out[i]) != 0xFF) {
      out[i] = static_cast<char>(static_cast<unsigned char>(out[i]) + 1);
      out.resize(i + 1);
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<StatsMode> StatsMode::Parse(std::string_view text) {
  const std::string lower = AsciiToLower(text);
  if (lower == "none") return StatsMode{Kind::kNone, 0};
  if (lower == "counts") return StatsMode{Kind::kCounts, 0};
  if (lower == "full") return StatsMode{Kind::kFull, 0};
  constexpr std::string_view kPrefix = "truncate(";
  if (lower.size() > kPrefix.size() + 1 && lower.compare(0, kPrefix.size(), kPrefix) == 0 &&
      lower.back() == ')') {
    const char* begin = lower.data() + kPrefix.size();
    const char* end = lower.data() + lower.size() - 1;
    int32_t n = 0;
    auto [ptr, ec] = std::from_chars(begin, end, n);
    if (ec == std::errc() && ptr == end && n > 0) return StatsMode{Kind::kTruncate, n};
  }
  return Status::InvalidArgument("unknown stats mode '" + std::string(text) +
                                 "' (expected none, counts, truncate(N) or full)");
}

bool IsSystemFieldName(std::string_view name) {
  static constexpr std::string_view kSystemNames[] = {"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL",
                                                      "rowkind", "_ROW_ID"};
  if (name.substr(0, 5) == "_KEY_") return true;
  for (std::string_view s : kSystemNames) {
    if (name == s) return true;
  }
  return false;
}

Result<std::vector<StatsMode>> StatsModesOfColumns(const CoreOptions& options,
                                                   const std::vector<std::string>& column_names,
                                                   bool avro_file,
                                                   std::optional<std::string> table_mode_text) {
  SLUICE_ASSIGN_OR_RETURN(
      StatsMode table_mode,
      StatsMode::Parse(table_mode_text ? *table_mode_text : options.metadata_stats_mode()));
  const int32_t keep_first_n = options.metadata_stats_keep_first_n_columns();
  std::vector<StatsMode> modes;
  modes.reserve(column_names.size());
  int32_t user_columns = 0;
  for (const std::string& name : column_names) {
    if (std::optional<std::string> field_mode = options.FieldStatsMode(name)) {
      SLUICE_ASSIGN_OR_RETURN(StatsMode mode, StatsMode::Parse(*field_mode));
      modes.push_back(mode);
      ++user_columns;
    } else if (!avro_file && IsSystemFieldName(name)) {
      modes.push_back(StatsMode::Truncate(128));
    } else {
      modes.push_back(keep_first_n >= 0 && user_columns >= keep_first_n ? StatsMode::None()
                                                                        : table_mode);
      ++user_columns;
    }
  }
  return modes;
}

Result<std::map<int32_t, std::string>> StatsModesPerLevel(const CoreOptions& options) {
  std::map<int32_t, std::string> out;
  const std::string* map = options.Find("metadata.stats-mode.per.level");
  if (map == nullptr) return out;
  auto trim = [](std::string_view t) {
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    return t;
  };
  std::string_view rest(*map);
  while (!trim(rest).empty()) {
    const size_t comma = rest.find(',');
    const std::string_view entry = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t colon = entry.find(':');
    const std::string_view key = trim(entry.substr(0, colon));
    int32_t level = 0;
    auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), level);
    if (colon == std::string_view::npos || ec != std::errc() || ptr != key.data() + key.size()) {
      return Status::InvalidArgument("metadata.stats-mode.per.level: malformed entry '" +
                                     std::string(entry) + "' (expected <level>:<mode>)");
    }
    std::string mode(trim(entry.substr(colon + 1)));
    SLUICE_RETURN_NOT_OK(StatsMode::Parse(mode).status());
    out[level] = std::move(mode);
  }
  return out;
}

ColumnStats ApplyStatsMode(const ColumnStats& stats, StatsMode mode, const DataType& type) {
  ColumnStats out;
  switch (mode.kind) {
    case StatsMode::Kind::kNone:
      return out;
    case StatsMode::Kind::kCounts:
      out.null_count = stats.null_count;
      return out;
    case StatsMode::Kind::kFull:
      return stats;
    case StatsMode::Kind::kTruncate:
      break;
  }
  out = stats;
  const bool is_string = type.IsString();
  if (!is_string && !type.IsBinary()) return out;
  const int32_t n = mode.truncate_length;
  if (out.min && !out.min->is_null()) {
    const std::string& s = out.min->bytes();
    std::string cut = is_string ? TruncateStringMin(s, n)
                                : (static_cast<int32_t>(s.size()) > n ? s.substr(0, n) : s);
    out.min = is_string ? Value::String(std::move(cut)) : Value::Binary(std::move(cut));
  }
  if (out.max && !out.max->is_null()) {
    const std::string& s = out.max->bytes();
    std::optional<std::string> cut = is_string ? TruncateStringMax(s, n) : TruncateBinaryMax(s, n);
    if (!cut) {
      out.min.reset();
      out.max.reset();
    } else {
      out.max = is_string ? Value::String(std::move(*cut)) : Value::Binary(std::move(*cut));
    }
  }
  return out;
}

}  // namespace sluice
