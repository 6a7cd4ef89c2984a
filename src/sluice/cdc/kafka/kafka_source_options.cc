#include "sluice/cdc/kafka/kafka_source_options.h"

#include <cctype>
#include <charconv>
#include <regex>
#include <string_view>

#include "sluice/base/string_util.h"
#include "sluice/cdc/action_arguments.h"
#include "sluice/secret_mask.h"

namespace sluice {

namespace {

constexpr std::string_view kPropertiesPrefix = "properties.";

std::string_view Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<std::string> SplitString(std::string_view text, char separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

template <typename Int>
bool ParseInt(std::string_view text, Int* out) {
  text = Trim(text);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

Status Invalid(std::string_view key, std::string_view value, std::string_view why) {
  return Status::InvalidArgument("kafka_conf " + std::string(key) + "='" +
                                 MaskedOptionValue(key, value) + "': " + std::string(why));
}

// Flink's Duration syntax: a number and an optional unit (ms when none).
Result<std::chrono::milliseconds> ParseDuration(std::string_view key, std::string_view value) {
  std::string_view text = Trim(value);
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  int64_t amount = 0;
  if (digits == 0 || !ParseInt(text.substr(0, digits), &amount)) {
    return Invalid(key, value, "expected a duration such as 10000, 10 s or 1 min");
  }
  std::string unit = AsciiToLower(Trim(text.substr(digits)));
  int64_t millis_per_unit = 0;
  if (unit.empty() || unit == "ms" || unit == "milli" || unit == "millis") {
    millis_per_unit = 1;
  } else if (unit == "s" || unit == "sec" || unit == "secs" || unit == "second" ||
             unit == "seconds") {
    millis_per_unit = 1000;
  } else if (unit == "min" || unit == "m" || unit == "minute" || unit == "minutes") {
    millis_per_unit = 60 * 1000;
  } else if (unit == "h" || unit == "hour" || unit == "hours") {
    millis_per_unit = 3600 * 1000;
  } else {
    return Invalid(key, value, "unknown duration unit '" + unit + "'");
  }
  return std::chrono::milliseconds(amount * millis_per_unit);
}

}  // namespace

const char* KafkaStartupModeName(KafkaStartupMode mode) {
  switch (mode) {
    case KafkaStartupMode::kEarliest:
      return "earliest-offset";
    case KafkaStartupMode::kLatest:
      return "latest-offset";
    case KafkaStartupMode::kGroupOffsets:
      return "group-offsets";
    case KafkaStartupMode::kTimestamp:
      return "timestamp";
    case KafkaStartupMode::kSpecificOffsets:
      return "specific-offsets";
  }
  return "?";
}

Result<std::map<int32_t, int64_t>> ParseKafkaSpecificOffsets(const std::string& text) {
  constexpr std::string_view kKey = "scan.startup.specific-offsets";
  const std::string_view kSyntax = "expected partition:0,offset:42;partition:1,offset:300";
  std::map<int32_t, int64_t> offsets;
  for (const std::string& entry : SplitString(text, ';')) {
    if (Trim(entry).empty()) continue;
    std::vector<std::string> fields = SplitString(entry, ',');
    if (fields.size() != 2) return Invalid(kKey, text, kSyntax);
    std::string_view partition_field = Trim(fields[0]);
    std::string_view offset_field = Trim(fields[1]);
    int32_t partition = 0;
    int64_t offset = 0;
    if (!partition_field.starts_with("partition:") || !offset_field.starts_with("offset:") ||
        !ParseInt(partition_field.substr(10), &partition) ||
        !ParseInt(offset_field.substr(7), &offset) || partition < 0 || offset < 0) {
      return Invalid(kKey, text, kSyntax);
    }
    offsets[partition] = offset;
  }
  if (offsets.empty()) return Invalid(kKey, text, kSyntax);
  return offsets;
}

Result<KafkaSourceOptions> KafkaSourceOptions::Parse(
    const std::vector<std::pair<std::string, std::string>>& kafka_conf) {
  KafkaSourceOptions options;
  std::optional<std::string> topic;
  std::optional<std::string> mode;
  std::optional<std::string> timestamp;
  std::optional<std::string> specific;
  for (const auto& [key, value] : kafka_conf) {
    if (key == "topic") {
      topic = value;
    } else if (key == "topic-pattern") {
      options.topic_pattern = value;
    } else if (key == "scan.startup.mode") {
      mode = value;
    } else if (key == "scan.startup.timestamp-millis") {
      timestamp = value;
    } else if (key == "scan.startup.specific-offsets") {
      specific = value;
    } else if (key == "scan.topic-partition-discovery.interval") {
      SLUICE_ASSIGN_OR_RETURN(options.discovery_interval, ParseDuration(key, value));
    } else if (key.starts_with(kPropertiesPrefix)) {
      std::string property = key.substr(kPropertiesPrefix.size());
      if (property == "bootstrap.servers") {
        options.bootstrap_servers = value;
      } else if (property == "group.id") {
        options.group_id = value;
      } else if (property == "auto.offset.reset") {
        // Java's values; librdkafka's synonyms too.
        if (value == "earliest" || value == "smallest" || value == "beginning") {
          options.offset_reset = KafkaOffsetReset::kEarliest;
        } else if (value == "latest" || value == "largest" || value == "end") {
          options.offset_reset = KafkaOffsetReset::kLatest;
        } else if (value == "none" || value == "error") {
          options.offset_reset = KafkaOffsetReset::kNone;
        } else {
          return Invalid(key, value, "expected earliest, latest or none");
        }
      } else if (property == "default.api.timeout.ms") {
        int64_t millis = 0;
        if (!ParseInt(value, &millis) || millis <= 0) {
          return Invalid(key, value, "expected a positive number of milliseconds");
        }
        options.request_timeout = std::chrono::milliseconds(millis);
      } else if (property == "sasl.jaas.config") {
        // Java's login module line; librdkafka takes the PLAIN / SCRAM credentials as settings.
        static const std::regex kUser(R"re(username\s*=\s*"([^"]*)")re");
        static const std::regex kPassword(R"re(password\s*=\s*"([^"]*)")re");
        std::smatch user;
        std::smatch password;
        if (std::regex_search(value, user, kUser) &&
            std::regex_search(value, password, kPassword)) {
          options.client_properties.emplace_back("sasl.username", user[1].str());
          options.client_properties.emplace_back("sasl.password", password[1].str());
        } else {
          options.client_properties.emplace_back(std::move(property), value);
        }
      } else if (property == "enable.auto.commit") {
        // The source positions itself and commits explicitly; never automatically.
      } else {
        options.client_properties.emplace_back(std::move(property), value);
      }
    }
  }
  if (options.bootstrap_servers.empty()) {
    return Status::InvalidArgument("kafka_conf properties.bootstrap.servers is required");
  }
  if (topic.has_value() == !options.topic_pattern.empty()) {
    return Status::InvalidArgument(
        "kafka_conf needs exactly one of topic and topic-pattern (kafka " +
        options.bootstrap_servers + ")");
  }
  if (topic.has_value()) {
    for (const std::string& name : SplitString(*topic, ';')) {
      std::string_view trimmed = Trim(name);
      if (!trimmed.empty()) options.topics.emplace_back(trimmed);
    }
    if (options.topics.empty()) return Invalid("topic", *topic, "no topic named");
  } else {
    try {
      std::regex check(options.topic_pattern);
    } catch (const std::regex_error& e) {
      return Invalid("topic-pattern", options.topic_pattern,
                     std::string("not a regular expression: ") + e.what());
    }
  }
  if (mode.has_value()) {
    if (*mode == "earliest-offset") {
      options.startup_mode = KafkaStartupMode::kEarliest;
    } else if (*mode == "latest-offset") {
      options.startup_mode = KafkaStartupMode::kLatest;
    } else if (*mode == "group-offsets") {
      options.startup_mode = KafkaStartupMode::kGroupOffsets;
    } else if (*mode == "timestamp") {
      options.startup_mode = KafkaStartupMode::kTimestamp;
    } else if (*mode == "specific-offsets") {
      options.startup_mode = KafkaStartupMode::kSpecificOffsets;
    } else {
      return Invalid("scan.startup.mode", *mode,
                     "expected earliest-offset, latest-offset, group-offsets, timestamp or "
                     "specific-offsets");
    }
  }
  switch (options.startup_mode) {
    case KafkaStartupMode::kTimestamp:
      if (!timestamp.has_value()) {
        return Status::InvalidArgument(
            "kafka_conf scan.startup.mode=timestamp needs scan.startup.timestamp-millis");
      }
      if (!ParseInt(*timestamp, &options.startup_timestamp_ms) ||
          options.startup_timestamp_ms < 0) {
        return Invalid("scan.startup.timestamp-millis", *timestamp, "expected epoch milliseconds");
      }
      break;
    case KafkaStartupMode::kSpecificOffsets: {
      if (!specific.has_value()) {
        return Status::InvalidArgument(
            "kafka_conf scan.startup.mode=specific-offsets needs scan.startup.specific-offsets");
      }
      SLUICE_ASSIGN_OR_RETURN(options.specific_offsets, ParseKafkaSpecificOffsets(*specific));
      break;
    }
    case KafkaStartupMode::kGroupOffsets:
      if (options.group_id.empty()) {
        return Status::InvalidArgument(
            "kafka_conf scan.startup.mode=group-offsets needs properties.group.id");
      }
      break;
    case KafkaStartupMode::kEarliest:
    case KafkaStartupMode::kLatest:
      break;
  }
  return options;
}

}  // namespace sluice
