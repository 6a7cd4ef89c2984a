// Parsers for the text of table option values, with the rules of Paimon's OptionsUtils /
// MemorySize / TimeUtils, so that a value Java accepts is accepted here and means the same.
//
//   boolean      "true" / "false", any letter case
//   integer      decimal digits with an optional sign; surrounding blanks allowed
//   memory size  "<digits>[ ]<unit>" with unit b|bytes, k|kb|kibibytes, m|mb|mebibytes,
//                g|gb|gibibytes, t|tb|tebibytes (any case, powers of 1024); no unit = bytes
//   duration     "<digits>[ ]<unit>" with unit ns, us|micro.., ms|milli.., s|sec.., min|m|minute..,
//                h|hour.., d|day..; no unit = milliseconds
//   list         comma separated, each element trimmed (Java `split(",")` + trim: a trailing
//                empty element is dropped)
//
// Errors are InvalidArgument naming the key and the value.
//
// Thread safety: stateless functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice {

Result<bool> ParseBooleanOption(std::string_view key, std::string_view text);
Result<int32_t> ParseIntOption(std::string_view key, std::string_view text);
Result<int64_t> ParseLongOption(std::string_view key, std::string_view text);
// Java Double.parseDouble: surrounding blanks allowed.
Result<double> ParseDoubleOption(std::string_view key, std::string_view text);
// A size in bytes.
Result<int64_t> ParseMemorySizeOption(std::string_view key, std::string_view text);
Result<std::chrono::milliseconds> ParseDurationOption(std::string_view key, std::string_view text);
std::vector<std::string> SplitOptionList(std::string_view text);

}  // namespace sluice
