// Keeping secrets out of what Sluice prints. An option whose key names a secret, a token or a
// password (s3.secret-key, a JDBC password, a Kafka SASL JAAS config) is a credential: its value
// never appears in an error, a log line, `sluice meta` or a system table of options; "******"
// stands in its place, as Flink masks its sensitive configuration.
//
// Thread safety: pure functions.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace sluice {

// What stands in for a secret value.
inline constexpr std::string_view kMaskedSecret = "******";

// Whether the value of option `key` is a credential (ASCII case ignored): the key contains
// "secret", "password", "passwd", "token", "credential", "api-key" / "apikey" / "api_key",
// "private-key" / "private_key", "jaas.config", "auth-params", "service-key" or "basic-auth".
bool IsSecretOptionKey(std::string_view key);

// `value`, or kMaskedSecret when `key` names a credential.
std::string MaskedOptionValue(std::string_view key, std::string_view value);

// `options` with every credential's value masked.
std::map<std::string, std::string> MaskSecretOptions(std::map<std::string, std::string> options);

// `text` (an error, a log line, an echoed argument) with the value after every credential's key
// masked, where the key is followed by '=', or by ':' when it reads as an option name (quoted,
// dotted, dashed, or a bare "password", "secret", "token") ("s3.secret-key=abc", "password: abc",
// "\"s3.secret-key\":\"abc\""): a quoted value up to its closing quote, else up to the next
// whitespace, ',', ';', '&', ']', '}' or ')', or at the quote that opened before the key
// ("'password=abc'").
std::string MaskSecrets(std::string_view text);

}  // namespace sluice
