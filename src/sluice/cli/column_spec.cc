#include "sluice/cli/column_spec.h"

#include <cctype>
#include <string>
#include <vector>

#include "sluice/data_type.h"

namespace sluice::cli {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWithWord(std::string_view s, std::string_view word) {
  if (s.size() < word.size() || Upper(s.substr(0, word.size())) != word) return false;
  return s.size() == word.size() || !std::isalnum(static_cast<unsigned char>(s[word.size()]));
}

Status Invalid(std::string_view text, std::string_view why) {
  return Status::InvalidArgument("type '" + std::string(text) + "': " + std::string(why));
}

// Splits `s` at commas outside <>, () and quotes.
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '`' || c == '\'') {
      quote = c;
    } else if (c == '<' || c == '(') {
      ++depth;
    } else if (c == '>' || c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

// A leading column name (plain or back-quoted) and what follows it.
Result<std::pair<std::string, std::string_view>> SplitName(std::string_view text) {
  text = Trim(text);
  if (text.empty()) return Status::InvalidArgument("empty column specification");
  if (text.front() == '`') {
    std::string name;
    size_t i = 1;
    for (; i < text.size(); ++i) {
      if (text[i] == '`') {
        if (i + 1 < text.size() && text[i + 1] == '`') {
          name += '`';
          ++i;
          continue;
        }
        break;
      }
      name += text[i];
    }
    if (i >= text.size()) {
      return Status::InvalidArgument("column '" + std::string(text) + "': unclosed back-quote");
    }
    return std::make_pair(name, text.substr(i + 1));
  }
  size_t end = 0;
  while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
  return std::make_pair(std::string(text.substr(0, end)), text.substr(end));
}

// The index of the '>' closing the '<' at `open`, or npos.
size_t MatchingAngle(std::string_view s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '<') ++depth;
    if (s[i] == '>' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// "NOT NULL" / "NULL" / "" after a nested type.
Result<bool> ParseNullability(std::string_view rest, std::string_view text) {
  rest = Trim(rest);
  if (rest.empty() || Upper(rest) == "NULL") return true;
  std::string upper = Upper(rest);
  // Collapse inner whitespace of "NOT   NULL".
  if (upper.starts_with("NOT") && Trim(std::string_view(upper).substr(3)) == "NULL") return false;
  return Invalid(text, "unexpected '" + std::string(rest) + "' after the type");
}

}  // namespace

Result<DataTypePtr> ParseTypeSpec(std::string_view text) {
  const std::string_view t = Trim(text);
  for (std::string_view kind : {"ARRAY", "MULTISET", "MAP", "ROW"}) {
    if (!StartsWithWord(t, kind)) continue;
    std::string_view after = Trim(t.substr(kind.size()));
    if (after.empty() || after.front() != '<') break;  // e.g. "INT ARRAY" is atomic
    const size_t open = t.size() - after.size();
    const size_t close = MatchingAngle(t, open);
    if (close == std::string_view::npos) return Invalid(text, "unbalanced '<'");
    const std::string_view inner = t.substr(open + 1, close - open - 1);
    SLUICE_ASSIGN_OR_RETURN(bool nullable, ParseNullability(t.substr(close + 1), text));
    std::vector<std::string_view> parts = SplitTopLevel(inner);
    if (kind == "ARRAY" || kind == "MULTISET") {
      if (parts.size() != 1) return Invalid(text, std::string(kind) + " takes one element type");
      SLUICE_ASSIGN_OR_RETURN(DataTypePtr element, ParseTypeSpec(parts[0]));
      return kind == "ARRAY" ? DataType::Array(element, nullable)
                             : DataType::Multiset(element, nullable);
    }
    if (kind == "MAP") {
      if (parts.size() != 2) return Invalid(text, "MAP takes a key and a value type");
      SLUICE_ASSIGN_OR_RETURN(DataTypePtr key, ParseTypeSpec(parts[0]));
      SLUICE_ASSIGN_OR_RETURN(DataTypePtr value, ParseTypeSpec(parts[1]));
      return DataType::Map(key, value, nullable);
    }
    std::vector<DataField> fields;
    for (std::string_view part : parts) {
      if (Trim(part).empty()) return Invalid(text, "empty ROW field");
      SLUICE_ASSIGN_OR_RETURN(DataField field, ParseColumnSpec(part));
      field.id = static_cast<int32_t>(fields.size());
      fields.push_back(std::move(field));
    }
    return DataType::Row(std::move(fields), nullable);
  }
  Result<DataTypePtr> atomic = ParseAtomicDataType(t);
  if (!atomic.ok()) return Invalid(text, atomic.status().message());
  return atomic;
}

Result<DataField> ParseColumnSpec(std::string_view text) {
  SLUICE_ASSIGN_OR_RETURN(auto split, SplitName(text));
  auto& [name, rest] = split;
  if (name.empty()) return Status::InvalidArgument("column '" + std::string(text) + "': no name");
  std::string_view type_text = Trim(rest);
  std::optional<std::string> comment;
  // A trailing COMMENT 'text' ('' inside the text is a quote).
  int depth = 0;
  for (size_t i = 0; i + 7 < type_text.size(); ++i) {
    if (type_text[i] == '<') ++depth;
    if (type_text[i] == '>') --depth;
    if (depth != 0 || !std::isspace(static_cast<unsigned char>(type_text[i]))) continue;
    std::string_view tail = Trim(type_text.substr(i));
    if (!StartsWithWord(tail, "COMMENT")) continue;
    std::string_view quoted = Trim(tail.substr(7));
    if (quoted.size() < 2 || quoted.front() != '\'' || quoted.back() != '\'') {
      return Status::InvalidArgument("column '" + std::string(text) +
                                     "': COMMENT expects a quoted text");
    }
    std::string value;
    for (size_t k = 1; k + 1 < quoted.size(); ++k) {
      value += quoted[k];
      if (quoted[k] == '\'' && k + 2 < quoted.size() && quoted[k + 1] == '\'') ++k;
    }
    comment = std::move(value);
    type_text = Trim(type_text.substr(0, i));
    break;
  }
  if (type_text.empty()) {
    return Status::InvalidArgument("column '" + std::string(text) + "': no type");
  }
  Result<DataTypePtr> type = ParseTypeSpec(type_text);
  if (!type.ok()) return type.status().WithContext("column '" + name + "'");
  return DataField{0, std::move(name), std::move(*type), std::move(comment), std::nullopt};
}

}  // namespace sluice::cli
