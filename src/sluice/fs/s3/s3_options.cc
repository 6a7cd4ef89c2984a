#include "sluice/fs/s3/s3_options.h"

#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <optional>

#include "sluice/base/string_util.h"

namespace sluice {

namespace {

using OptionMap = std::map<std::string, std::string>;

// The value of the first of `keys` that is set.
std::optional<std::string> Get(const OptionMap& options, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    auto it = options.find(key);
    if (it != options.end()) return std::string(JavaTrim(it->second));
  }
  return std::nullopt;
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// "123", "64m", "8MB": a size in bytes.
Result<int64_t> ParseSize(const std::string& key, const std::string& text) {
  std::string lower = AsciiToLower(text);
  if (lower.ends_with("b")) lower.pop_back();
  int64_t unit = 1;
  if (!lower.empty()) {
    switch (lower.back()) {
      case 'k':
        unit = int64_t{1} << 10;
        break;
      case 'm':
        unit = int64_t{1} << 20;
        break;
      case 'g':
        unit = int64_t{1} << 30;
        break;
      default:
        break;
    }
    if (unit != 1) lower.pop_back();
  }
  char* end = nullptr;
  const long long value = std::strtoll(lower.c_str(), &end, 10);
  if (lower.empty() || end != lower.c_str() + lower.size() || value < 0) {
    return Status::InvalidArgument("option " + key + ": '" + text + "' is not a size in bytes");
  }
  return static_cast<int64_t>(value) * unit;
}

// "500", "500ms", "30s", "2min": milliseconds.
Result<int64_t> ParseMillis(const std::string& key, const std::string& text) {
  std::string lower = AsciiToLower(text);
  int64_t unit = 1;
  if (lower.ends_with("ms")) {
    lower.resize(lower.size() - 2);
  } else if (lower.ends_with("min")) {
    lower.resize(lower.size() - 3);
    unit = 60000;
  } else if (lower.ends_with("s")) {
    lower.pop_back();
    unit = 1000;
  }
  char* end = nullptr;
  const long long value = std::strtoll(lower.c_str(), &end, 10);
  if (lower.empty() || end != lower.c_str() + lower.size() || value < 0) {
    return Status::InvalidArgument("option " + key + ": '" + text + "' is not a duration");
  }
  return static_cast<int64_t>(value) * unit;
}

Result<int64_t> ParseCount(const std::string& key, const std::string& text, int64_t min,
                           int64_t max) {
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || end != text.c_str() + text.size() || value < min || value > max) {
    return Status::InvalidArgument("option " + key + ": '" + text + "' is not a number from " +
                                   std::to_string(min) + " to " + std::to_string(max));
  }
  return static_cast<int64_t>(value);
}

// The key = value pairs of section `section` of an AWS INI file ("" when it cannot be read).
OptionMap ReadIniSection(const std::string& path, const std::string& section) {
  OptionMap out;
  std::ifstream in(path);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    std::string_view text = JavaTrim(line);
    if (text.empty() || text.front() == '#' || text.front() == ';') continue;
    if (text.front() == '[') {
      const size_t close = text.find(']');
      inside = close != std::string_view::npos && JavaTrim(text.substr(1, close - 1)) == section;
      continue;
    }
    const size_t eq = text.find('=');
    if (!inside || eq == std::string_view::npos) continue;
    out[AsciiToLower(JavaTrim(text.substr(0, eq)))] = std::string(JavaTrim(text.substr(eq + 1)));
  }
  return out;
}

std::string AwsFile(const char* env_override, const char* name) {
  std::string path = Env(env_override);
  if (!path.empty()) return path;
  const std::string home = Env("HOME");
  return home.empty() ? std::string() : home + "/.aws/" + name;
}

}  // namespace

Result<S3Options> S3Options::FromOptions(const OptionMap& options) {
  S3Options out;
  if (auto v = Get(options, {"s3.endpoint"})) out.endpoint = *v;
  if (auto v = Get(options, {"s3.path.style.access"})) {
    const std::string lower = AsciiToLower(*v);
    if (lower != "true" && lower != "false") {
      return Status::InvalidArgument("option s3.path.style.access: '" + *v +
                                     "' is neither true nor false");
    }
    out.path_style_access = lower == "true";
  }
  if (auto v = Get(options, {"s3.multipart.size"})) {
    SLUICE_ASSIGN_OR_RETURN(out.multipart_size, ParseSize("s3.multipart.size", *v));
    if (out.multipart_size < (int64_t{5} << 20) || out.multipart_size > (int64_t{5} << 30)) {
      return Status::InvalidArgument("option s3.multipart.size: '" + *v +
                                     "' is outside S3's part sizes (5 MiB to 5 GiB)");
    }
  }
  if (auto v = Get(options, {"s3.paging.maximum"})) {
    SLUICE_ASSIGN_OR_RETURN(int64_t n, ParseCount("s3.paging.maximum", *v, 1, 1000));
    out.list_page_size = static_cast<int>(n);
  }
  if (auto v = Get(options, {"s3.attempts.maximum"})) {
    SLUICE_ASSIGN_OR_RETURN(int64_t n, ParseCount("s3.attempts.maximum", *v, 1, 100));
    out.max_attempts = static_cast<int>(n);
  }
  if (auto v = Get(options, {"s3.retry.interval"})) {
    SLUICE_ASSIGN_OR_RETURN(out.retry_base_delay_ms, ParseMillis("s3.retry.interval", *v));
  }
  if (auto v = Get(options, {"s3.retry.max-interval"})) {
    SLUICE_ASSIGN_OR_RETURN(out.retry_max_delay_ms, ParseMillis("s3.retry.max-interval", *v));
  }
  if (auto v = Get(options, {"s3.connection.establish.timeout"})) {
    SLUICE_ASSIGN_OR_RETURN(out.connect_timeout_ms,
                            ParseMillis("s3.connection.establish.timeout", *v));
  }
  if (auto v = Get(options, {"s3.connection.timeout"})) {
    SLUICE_ASSIGN_OR_RETURN(out.request_timeout_ms, ParseMillis("s3.connection.timeout", *v));
  }

  // The AWS tools' order: the options, then the environment, then the profile's files.
  std::string profile = Env("AWS_PROFILE");
  if (profile.empty()) profile = "default";
  auto access = Get(options, {"s3.access-key", "s3.access.key"});
  auto secret = Get(options, {"s3.secret-key", "s3.secret.key"});
  auto token = Get(options, {"s3.session.token", "s3.session-token"});
  if (access.has_value() != secret.has_value()) {
    return Status::InvalidArgument(
        "options s3.access-key and s3.secret-key must be given together (only " +
        std::string(access ? "s3.access-key" : "s3.secret-key") + " is set)");
  }
  if (!access && !Env("AWS_ACCESS_KEY_ID").empty()) {
    access = Env("AWS_ACCESS_KEY_ID");
    secret = Env("AWS_SECRET_ACCESS_KEY");
    if (!token) token = Env("AWS_SESSION_TOKEN");
    if (secret->empty()) {
      return Status::InvalidArgument("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not");
    }
  }
  const std::string credentials_file = AwsFile("AWS_SHARED_CREDENTIALS_FILE", "credentials");
  if (!access && !credentials_file.empty()) {
    OptionMap section = ReadIniSection(credentials_file, profile);
    if (!section["aws_access_key_id"].empty() && !section["aws_secret_access_key"].empty()) {
      access = section["aws_access_key_id"];
      secret = section["aws_secret_access_key"];
      if (!token) token = section["aws_session_token"];
    }
  }
  if (!access) {
    return Status::InvalidArgument(
        "no S3 credentials: set s3.access-key and s3.secret-key, AWS_ACCESS_KEY_ID and "
        "AWS_SECRET_ACCESS_KEY, or profile '" +
        profile + "' in " + (credentials_file.empty() ? "~/.aws/credentials" : credentials_file));
  }
  out.access_key = *access;
  out.secret_key = *secret;
  if (token) out.session_token = *token;

  if (auto v = Get(options, {"s3.region", "s3.endpoint.region"})) {
    out.region = *v;
  } else if (!Env("AWS_REGION").empty()) {
    out.region = Env("AWS_REGION");
  } else if (!Env("AWS_DEFAULT_REGION").empty()) {
    out.region = Env("AWS_DEFAULT_REGION");
  } else if (const std::string config = AwsFile("AWS_CONFIG_FILE", "config"); !config.empty()) {
    // The config file names profiles "[profile NAME]", all but the default one.
    OptionMap section =
        ReadIniSection(config, profile == "default" ? profile : "profile " + profile);
    if (!section["region"].empty()) out.region = section["region"];
  }
  if (out.retry_max_delay_ms < out.retry_base_delay_ms) {
    out.retry_max_delay_ms = out.retry_base_delay_ms;
  }
  return out;
}

}  // namespace sluice
