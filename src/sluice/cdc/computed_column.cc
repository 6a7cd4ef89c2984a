#include "sluice/cdc/computed_column.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <utility>

#include "sluice/base/string_util.h"
#include "sluice/base/utf8.h"
#include "sluice/cdc/cdc_value_cast.h"

namespace sluice {

namespace {

using Function = ComputedColumn::Function;

struct FunctionName {
  std::string_view name;
  Function function;
};

constexpr FunctionName kFunctions[] = {
    {"year", Function::kYear},
    {"month", Function::kMonth},
    {"day", Function::kDay},
    {"hour", Function::kHour},
    {"minute", Function::kMinute},
    {"second", Function::kSecond},
    {"date_format", Function::kDateFormat},
    {"substring", Function::kSubstring},
    {"truncate", Function::kTruncate},
    {"cast", Function::kCast},
    {"now", Function::kNow},
    {"upper", Function::kUpper},
    {"lower", Function::kLower},
    {"trim", Function::kTrim},
};

std::string_view NameOf(Function function) {
  for (const FunctionName& f : kFunctions) {
    if (f.function == function) return f.name;
  }
  return "?";
}

bool IsTemporal(Function f) {
  return f == Function::kYear || f == Function::kMonth || f == Function::kDay ||
         f == Function::kHour || f == Function::kMinute || f == Function::kSecond ||
         f == Function::kDateFormat;
}

bool IsStringFunction(Function f) {
  return f == Function::kUpper || f == Function::kLower || f == Function::kTrim;
}

// Java String.split on one character: trailing empty strings dropped (all of them when the
// text is only separators), the text itself when it has no separator.
std::vector<std::string> JavaSplit(std::string_view s, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(separator, start);
    if (at == std::string_view::npos) {
      parts.emplace_back(s.substr(start));
      break;
    }
    parts.emplace_back(s.substr(start, at - start));
    start = at + 1;
  }
  if (parts.size() > 1) {
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
  }
  return parts;
}

// Java Integer.parseInt.
template <typename T>
bool ParseJavaInt(std::string_view s, T* out) {
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '-') return false;
  }
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

std::string ListText(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  return out + "]";
}

Status Invalid(std::string message) { return Status::InvalidArgument(std::move(message)); }

// The civil fields of a wall-clock Timestamp.
struct CivilTime {
  int64_t year;
  int month, day, hour, minute, second, day_of_year, day_of_week;  // day_of_week 1 = Monday
  int32_t nano;
};

CivilTime ToCivil(const Timestamp& ts) {
  int64_t millis = ts.millisecond;
  int64_t days = millis / 86400000;
  int64_t ms_of_day = millis % 86400000;
  if (ms_of_day < 0) {
    ms_of_day += 86400000;
    --days;
  }
  // Howard Hinnant's civil_from_days.
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  const int64_t y = yoe + era * 400 + (m <= 2);
  CivilTime c;
  c.year = y;
  c.month = m;
  c.day = d;
  c.hour = static_cast<int>(ms_of_day / 3600000);
  c.minute = static_cast<int>(ms_of_day / 60000 % 60);
  c.second = static_cast<int>(ms_of_day / 1000 % 60);
  c.nano = static_cast<int32_t>(ms_of_day % 1000 * 1000000 + ts.nano_of_millisecond);
  c.day_of_year = static_cast<int>(days - DaysFromCivil(y, 1, 1) + 1);
  c.day_of_week = static_cast<int>(((days % 7) + 7 + 3) % 7 + 1);  // 1970-01-01 was a Thursday
  return c;
}

void AppendPadded(int64_t v, int width, std::string* out) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  if (v < 0) out->push_back('-');
  for (int i = static_cast<int>(digits.size()); i < width; ++i) out->push_back('0');
  out->append(digits);
}

constexpr std::string_view kMonthNames[] = {"January",   "February", "March",    "April",
                                            "May",       "June",     "July",     "August",
                                            "September", "October",  "November", "December"};
constexpr std::string_view kDayNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                          "Friday", "Saturday", "Sunday"};

// java.time DateTimeFormatter.ofPattern for the letters date formats use: y u M L d D H h k K
// m s S a E, quoted literals, and other characters as they are. Other letters are refused.
Status CheckDatePattern(std::string_view pattern) {
  static constexpr std::string_view kSupported = "yuMLdDHhkKmsSaE";
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\'') {
      const size_t close = pattern.find('\'', i + 1);
      if (close == std::string_view::npos) {
        return Invalid("Pattern ends with an incomplete string literal: " + std::string(pattern));
      }
      i = close;
    } else if (((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) &&
               kSupported.find(c) == std::string_view::npos) {
      return Invalid("Unsupported pattern letter '" + std::string(1, c) +
                     "' in date_format pattern: " + std::string(pattern));
    }
  }
  return Status::OK();
}

std::string FormatDate(const CivilTime& t, std::string_view pattern) {
  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      const size_t close = pattern.find('\'', i + 1);
      if (close == i + 1) {
        out.push_back('\'');  // '' is a quote
      } else {
        out.append(pattern.substr(i + 1, close - i - 1));
      }
      i = close + 1;
      continue;
    }
    size_t n = 1;
    while (i + n < pattern.size() && pattern[i + n] == c) ++n;
    const int count = static_cast<int>(n);
    switch (c) {
      case 'y':
      case 'u':
        if (count == 2) {
          AppendPadded(((t.year % 100) + 100) % 100, 2, &out);
        } else {
          AppendPadded(t.year, count, &out);
        }
        break;
      case 'M':
      case 'L':
        if (count >= 4) {
          out.append(count == 4 ? kMonthNames[t.month - 1] : kMonthNames[t.month - 1].substr(0, 1));
        } else if (count == 3) {
          out.append(kMonthNames[t.month - 1].substr(0, 3));
        } else {
          AppendPadded(t.month, count, &out);
        }
        break;
      case 'd':
        AppendPadded(t.day, count, &out);
        break;
      case 'D':
        AppendPadded(t.day_of_year, count, &out);
        break;
      case 'H':
        AppendPadded(t.hour, count, &out);
        break;
      case 'k':
        AppendPadded(t.hour == 0 ? 24 : t.hour, count, &out);
        break;
      case 'h':
        AppendPadded(t.hour % 12 == 0 ? 12 : t.hour % 12, count, &out);
        break;
      case 'K':
        AppendPadded(t.hour % 12, count, &out);
        break;
      case 'm':
        AppendPadded(t.minute, count, &out);
        break;
      case 's':
        AppendPadded(t.second, count, &out);
        break;
      case 'S': {
        std::string nanos;
        AppendPadded(t.nano, 9, &nanos);
        for (int k = 0; k < count; ++k) out.push_back(k < 9 ? nanos[static_cast<size_t>(k)] : '0');
        break;
      }
      case 'a':
        out.append(t.hour < 12 ? "AM" : "PM");
        break;
      case 'E':
        out.append(count == 4 ? kDayNames[t.day_of_week - 1]
                              : kDayNames[t.day_of_week - 1].substr(0, count >= 5 ? 1 : 3));
        break;
      default:
        out.append(pattern.substr(i, n));
        break;
    }
    i += n;
  }
  return out;
}

// Java's "Referenced field" lookup: the name as written, lower-cased when not case-sensitive.
const DataField* FindReferenced(const std::vector<DataField>& fields, const std::string& name,
                                bool case_sensitive) {
  const std::string key = case_sensitive ? name : AsciiToLower(name);
  const DataField* found = nullptr;
  for (const DataField& field : fields) {
    if (field.name == key) found = &field;  // Java's map keeps the last of duplicate names
  }
  return found;
}

bool IsIntegerType(const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return true;
    default:
      return false;
  }
}

// Java BigDecimal(text) as unscaled digits and scale; false when malformed.
bool ParseBigDecimal(std::string_view s, int128_t* unscaled, int64_t* scale) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  int128_t value = 0;
  int64_t fraction = 0;
  size_t digits = 0;
  bool dot = false;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      if (++digits > 38) return false;
      value = value * 10 + (c - '0');
      if (dot) ++fraction;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (digits == 0) return false;
  int64_t exponent = 0;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return false;
    int32_t e = 0;
    if (!ParseJavaInt(s.substr(i + 1), &e)) return false;
    exponent = e;
  }
  *unscaled = negative ? -value : value;
  *scale = fraction - exponent;
  return true;
}

std::string Int128ToString(int128_t v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string digits;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    digits.push_back(static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// Java BigDecimal.toString: plain when the scale is not negative and the exponent is at least
// -6, else scientific notation.
std::string JavaBigDecimalToString(int128_t unscaled, int64_t scale) {
  std::string digits = Int128ToString(unscaled < 0 ? -unscaled : unscaled);
  const std::string sign = unscaled < 0 ? "-" : "";
  const int64_t adjusted = -scale + static_cast<int64_t>(digits.size()) - 1;
  if (scale >= 0 && adjusted >= -6) {
    if (scale == 0) return sign + digits;
    const int64_t n = static_cast<int64_t>(digits.size());
    if (n > scale) {
      return sign + digits.substr(0, static_cast<size_t>(n - scale)) + "." +
             digits.substr(static_cast<size_t>(n - scale));
    }
    return sign + "0." + std::string(static_cast<size_t>(scale - n), '0') + digits;
  }
  std::string out = sign + digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  out += "E";
  if (adjusted > 0) out += "+";
  return out + std::to_string(adjusted);
}

}  // namespace

Result<ComputedColumn> ComputedColumn::Parse(std::string_view argument) {
  const std::vector<std::string> kv = JavaSplit(argument, '=');
  if (kv.size() != 2) {
    return Invalid("Invalid computed column argument: " + std::string(argument) +
                   ". Please use format 'column-name=expr-name(args, ...)'.");
  }
  const std::string expression(JavaTrim(kv[1]));
  const size_t left = expression.find('(');
  const size_t right = expression.find(')');
  if (left == std::string::npos || left == 0 || right == std::string::npos || right < left) {
    return Invalid("Invalid expression: " + expression +
                   ". Please use format 'expr-name(args, ...)'.");
  }
  const std::string function_name = AsciiToLower(JavaTrim(expression.substr(0, left)));
  const std::vector<std::string> args =
      JavaSplit(std::string_view(expression).substr(left + 1, right - left - 1), ',');

  ComputedColumn column;
  column.name_ = std::string(JavaTrim(kv[0]));
  const FunctionName* found = nullptr;
  for (const FunctionName& f : kFunctions) {
    if (f.name == function_name) found = &f;
  }
  if (found == nullptr) {
    std::vector<std::string> names;
    for (const FunctionName& f : kFunctions) names.emplace_back(f.name);
    std::sort(names.begin(), names.end());
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ",") + n;
    return Invalid("Unsupported expression: " + std::string(JavaTrim(expression.substr(0, left))) +
                   ". Supported expressions are: " + list);
  }
  column.function_ = found->function;
  const Function f = column.function_;
  if (f == Function::kCast) {
    column.literals_ = args;
    if (args.size() != 1 && args.size() != 2) {
      return Invalid("'cast' expression supports one or two arguments, but found '" +
                     std::to_string(args.size()) + "'.");
    }
    column.cast_type_ = DataType::String();
    if (args.size() == 2) {
      Result<DataTypePtr> type = ParseAtomicDataType(JavaTrim(args[1]));
      if (!type.ok()) return type.status().WithContext("computed column " + column.name_);
      column.cast_type_ = *type;
    }
    return column;
  }
  if (f == Function::kNow) return column;

  column.field_reference_ = std::string(JavaTrim(args[0]));
  for (size_t i = 1; i < args.size(); ++i) column.literals_.emplace_back(JavaTrim(args[i]));
  const std::vector<std::string>& literals = column.literals_;
  const std::string count = std::to_string(literals.size());
  if (IsTemporal(f)) {
    const bool date_format = f == Function::kDateFormat;
    const size_t min = date_format ? 1 : 0;
    if (literals.size() < min || literals.size() > min + 1) {
      return Invalid(date_format
                         ? "'date_format' supports 1 or 2 arguments, but found '" + count + "'."
                         : "TemporalToIntConverter supports 0 or 1 argument, but found '" + count +
                               "'.");
    }
    if (date_format) SLUICE_RETURN_NOT_OK(CheckDatePattern(literals[0]));
    if (literals.size() == min + 1) {
      int precision = 0;
      if (!ParseJavaInt(literals[min], &precision)) {
        return Invalid("For input string: \"" + literals[min] + "\" (precision of " +
                       std::string(NameOf(f)) + ")");
      }
      if (precision != 0 && precision != 3 && precision != 6 && precision != 9) {
        return Invalid("Unsupported precision of temporal function: " + std::to_string(precision) +
                       ". Supported precisions are: 0 (for epoch seconds), 3 (for epoch "
                       "milliseconds), 6 (for epoch microseconds) and 9 (for epoch nanoseconds).");
      }
      column.precision_ = precision;
    }
  } else if (f == Function::kSubstring) {
    if (literals.size() != 1 && literals.size() != 2) {
      return Invalid("'substring' expression supports one or two arguments, but found '" + count +
                     "'.");
    }
    int end = 0;
    if (!ParseJavaInt(literals[0], &column.begin_) ||
        (literals.size() == 2 && !ParseJavaInt(literals[1], &end))) {
      return Invalid("The index arguments '" + ListText(literals) + "' contain non integer value.");
    }
    if (literals.size() == 2) column.end_ = end;
    if (column.begin_ < 0) {
      return Invalid("begin index argument (" + std::to_string(column.begin_) +
                     ") of 'substring' must be >= 0.");
    }
    if (column.end_ && *column.end_ <= column.begin_) {
      return Invalid("end index (" + std::to_string(*column.end_) +
                     ") must be larger than begin index (" + std::to_string(column.begin_) + ").");
    }
  } else if (f == Function::kTruncate) {
    if (literals.size() != 1) {
      return Invalid("'truncate' expression supports one argument, but found '" + count + "'.");
    }
    if (!ParseJavaInt(literals[0], &column.width_)) {
      return Invalid("Invalid width value for truncate function: " + literals[0] +
                     ", expected integer.");
    }
  } else if (IsStringFunction(f) && !literals.empty()) {
    return Invalid("'" + std::string(NameOf(f)) +
                   "' expression only supports 0 argument, but found '" + count + "'.");
  }
  return column;
}

Result<std::vector<ComputedColumn>> ComputedColumn::ParseAll(
    const std::vector<std::string>& arguments) {
  std::vector<ComputedColumn> columns;
  std::map<std::string, size_t> index;
  for (const std::string& argument : arguments) {
    SLUICE_ASSIGN_OR_RETURN(ComputedColumn column, Parse(argument));
    index[column.name()] = columns.size();
    columns.push_back(std::move(column));
  }
  // Java DfsSort: columns referencing no computed column keep their order and come first;
  // the others follow in the reverse of a depth-first post-order over their dependents.
  auto depends = [&](const ComputedColumn& c) { return index.count(c.field_reference()) > 0; };
  std::map<std::string, std::vector<size_t>> dependents;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (depends(columns[i])) dependents[columns[i].field_reference()].push_back(i);
  }
  std::vector<size_t> post_order;
  std::vector<char> visited(columns.size(), 0);
  std::vector<char> on_path(columns.size(), 0);
  std::function<Status(size_t)> dfs = [&](size_t i) -> Status {
    if (on_path[i]) return Invalid("Cycle detected: " + columns[i].name());
    if (visited[i]) return Status::OK();
    on_path[i] = 1;
    auto it = dependents.find(columns[i].name());
    if (it != dependents.end()) {
      for (size_t d : it->second) SLUICE_RETURN_NOT_OK(dfs(d));
    }
    on_path[i] = 0;
    visited[i] = 1;
    post_order.push_back(i);
    return Status::OK();
  };
  for (size_t i = 0; i < columns.size(); ++i) {
    if (depends(columns[i]) && !visited[i]) SLUICE_RETURN_NOT_OK(dfs(i));
  }
  std::vector<ComputedColumn> sorted;
  sorted.reserve(columns.size());
  for (ComputedColumn& c : columns) {
    if (!depends(c)) sorted.push_back(c);
  }
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
    sorted.push_back(columns[*it]);
  }
  return sorted;
}

Result<DataTypePtr> ComputedColumn::ResultType(const std::vector<DataField>& fields,
                                               bool case_sensitive) const {
  if (function_ == Function::kCast) return cast_type_;
  if (function_ == Function::kNow) return DataType::Timestamp(3);
  const DataField* referenced = FindReferenced(fields, field_reference_, case_sensitive);
  if (referenced == nullptr) {
    std::vector<std::string> names;
    for (const DataField& field : fields) names.push_back(field.name);
    return Invalid("Referenced field '" +
                   (case_sensitive ? field_reference_ : AsciiToLower(field_reference_)) +
                   "' is not in given fields: " + ListText(names) + ".");
  }
  const DataType& type = *referenced->type;
  if (IsTemporal(function_)) {
    return function_ == Function::kDateFormat ? DataType::String() : DataType::Int();
  }
  if (IsStringFunction(function_)) {
    if (type.root() != TypeRoot::kVarChar) {
      return Invalid("'" + std::string(NameOf(function_)) +
                     "' expression only supports type root of 'VARCHAR', but found '" +
                     std::string(TypeRootName(type.root())) + "'.");
    }
    return DataType::String();
  }
  if (function_ == Function::kTruncate) {
    switch (type.root()) {
      case TypeRoot::kTinyInt:
      case TypeRoot::kSmallInt:
      case TypeRoot::kInt:
      case TypeRoot::kBigInt:
      case TypeRoot::kDecimal:
      case TypeRoot::kChar:
      case TypeRoot::kVarChar:
        return referenced->type;
      default:
        return Invalid("Unsupported field type for truncate function: " +
                       std::string(TypeRootName(type.root())) + ".");
    }
  }
  return DataType::String();  // substring
}

Result<std::optional<std::string>> ComputedColumn::Eval(const CdcRecord& record,
                                                        const DataType* referenced_type,
                                                        const TimeZone* local_zone) const {
  if (function_ == Function::kCast) return std::optional<std::string>(literals_[0]);
  static const std::string kNoInput;
  if (function_ == Function::kNow) {
    SLUICE_ASSIGN_OR_RETURN(std::string now, EvalText(kNoInput, nullptr, local_zone));
    return std::optional<std::string>(std::move(now));
  }
  const std::optional<std::string>* input = record.Find(field_reference_);
  if (input == nullptr || !input->has_value()) return std::optional<std::string>();
  Result<std::string> value = EvalText(**input, referenced_type, local_zone);
  if (!value.ok()) return value.status().WithContext("computed column '" + name_ + "'");
  return std::optional<std::string>(std::move(value).value());
}

Result<std::string> ComputedColumn::EvalText(const std::string& input,
                                             const DataType* referenced_type,
                                             const TimeZone* local_zone) const {
  const TypeRoot root = referenced_type ? referenced_type->root() : TypeRoot::kVarChar;
  if (function_ == Function::kNow) {
    const int64_t micros = std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    Timestamp now = Timestamp::FromEpochMicros(micros);
    if (local_zone != nullptr)
      now.millisecond += local_zone->OffsetAt(now.millisecond / 1000) * 1000;
    return now.ToString(3);
  }
  if (IsTemporal(function_)) {
    std::optional<int> precision = precision_;
    if (!precision && referenced_type != nullptr && IsIntegerType(*referenced_type)) precision = 0;
    Timestamp ts;
    if (precision) {
      int64_t epoch = 0;
      if (!ParseJavaInt(std::string_view(input), &epoch)) {
        return Invalid("For input string: \"" + input + "\" (epoch number of " +
                       std::string(NameOf(function_)) + ")");
      }
      SLUICE_ASSIGN_OR_RETURN(
          Value v, CastFromCdcValueString(std::to_string(epoch), *DataType::Timestamp(*precision)));
      ts = v.timestamp();
    } else {
      // DateTimeUtils.toLocalDateTime(input, 9): text only, no epoch numbers.
      const bool digits = !input.empty() && std::all_of(input.begin(), input.end(), [](char c) {
        return (c >= '0' && c <= '9') || c == '-';
      }) && input.find('-', 1) == std::string::npos;
      if (digits) return Invalid("Text '" + input + "' could not be parsed as a timestamp");
      SLUICE_ASSIGN_OR_RETURN(Value v, CastFromCdcValueString(input, *DataType::Timestamp(9)));
      ts = v.timestamp();
    }
    const CivilTime t = ToCivil(ts);
    switch (function_) {
      case Function::kYear:
        return std::to_string(t.year);
      case Function::kMonth:
        return std::to_string(t.month);
      case Function::kDay:
        return std::to_string(t.day);
      case Function::kHour:
        return std::to_string(t.hour);
      case Function::kMinute:
        return std::to_string(t.minute);
      case Function::kSecond:
        return std::to_string(t.second);
      default:
        return FormatDate(t, literals_[0]);
    }
  }
  switch (function_) {
    case Function::kSubstring: {
      const size_t length = CountCodePoints(input);
      const size_t end = end_ ? static_cast<size_t>(*end_) : length;
      if (static_cast<size_t>(begin_) > length || end > length) {
        return Invalid(
            "Cannot get substring from '" + input +
            "' because the indexes are out of range. Begin index: " + std::to_string(begin_) +
            ", end index: " + (end_ ? std::to_string(*end_) : "null") + ".");
      }
      const size_t from = CodePointOffset(input, static_cast<size_t>(begin_));
      return input.substr(from, CodePointOffset(input, end) - from);
    }
    case Function::kTruncate: {
      const int64_t w = width_;
      if (root == TypeRoot::kChar || root == TypeRoot::kVarChar) {
        const size_t length = CountCodePoints(input);
        if (width_ < 0 || static_cast<size_t>(width_) > length) {
          return Invalid("Invalid width value for truncate function: " + std::to_string(width_) +
                         ", expected less than or equal to " + std::to_string(length) + ".");
        }
        return input.substr(0, CodePointOffset(input, static_cast<size_t>(width_)));
      }
      if (w == 0) return Invalid("/ by zero (truncate width 0 of '" + input + "')");
      if (root == TypeRoot::kDecimal) {
        int128_t unscaled = 0;
        int64_t scale = 0;
        if (!ParseBigDecimal(input, &unscaled, &scale)) {
          return Invalid("Character array is not a valid decimal number: '" + input + "'");
        }
        const int128_t r = ((unscaled % w) + w) % w;
        return JavaBigDecimalToString(unscaled - r, scale);
      }
      int64_t v = 0;
      bool ok = false;
      if (root == TypeRoot::kTinyInt || root == TypeRoot::kSmallInt) {
        int16_t s = 0;
        ok = ParseJavaInt(std::string_view(input), &s);
        v = s;
      } else if (root == TypeRoot::kInt) {
        int32_t i = 0;
        ok = ParseJavaInt(std::string_view(input), &i);
        v = i;
      } else if (root == TypeRoot::kBigInt) {
        ok = ParseJavaInt(std::string_view(input), &v);
      } else {
        return Invalid("Unsupported field type for truncate function: " +
                       std::string(TypeRootName(root)) + ".");
      }
      if (!ok) return Invalid("For input string: \"" + input + "\" (truncate)");
      // Java's arithmetic in the column's width: short and int results wrap.
      const int64_t result = v - (((v % w) + w) % w);
      if (root == TypeRoot::kTinyInt || root == TypeRoot::kSmallInt) {
        return std::to_string(static_cast<int16_t>(result));
      }
      if (root == TypeRoot::kInt) return std::to_string(static_cast<int32_t>(result));
      return std::to_string(result);
    }
    case Function::kUpper: {
      std::string out = input;
      for (char& c : out) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
      }
      return out;
    }
    case Function::kLower:
      return AsciiToLower(input);
    case Function::kTrim:
      return std::string(JavaTrim(input));
    default:
      return Status::Internal("computed column " + name_ + ": no evaluation");
  }
}

}  // namespace sluice
