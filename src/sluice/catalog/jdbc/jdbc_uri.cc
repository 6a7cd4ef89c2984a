#include "sluice/catalog/jdbc/jdbc_uri.h"

#include <charconv>

#include "sluice/secret_mask.h"

namespace sluice {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `text` with %XX decoded; a '%' not followed by two hex digits stays as it is.
std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 &&
        HexValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

// `k=v&k2=v2` into `properties`; a key without a value is a flag (MariaDB's
// `permitMysqlScheme`).
void ParseQuery(std::string_view query, std::map<std::string, std::string>* properties) {
  while (!query.empty()) {
    const size_t amp = query.find('&');
    std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? "" : query.substr(amp + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    (*properties)[PercentDecode(item.substr(0, eq))] =
        eq == std::string_view::npos ? "" : PercentDecode(item.substr(eq + 1));
  }
}

}  // namespace

Result<JdbcUri> JdbcUri::Parse(std::string_view uri) {
  JdbcUri out;
  out.masked = MaskSecrets(uri);
  auto invalid = [&](std::string_view why) {
    return Status::InvalidArgument("catalog option uri '" + out.masked + "' " + std::string(why) +
                                   " (jdbc:sqlite:PATH, jdbc:postgresql://HOST:PORT/DATABASE, "
                                   "jdbc:mysql://HOST:PORT/DATABASE or jdbc:mariadb://...)");
  };
  constexpr std::string_view kPrefix = "jdbc:";
  if (!uri.starts_with(kPrefix)) return invalid("is not a JDBC URL");
  std::string_view rest = uri.substr(kPrefix.size());
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos || colon == 0) return invalid("names no protocol");
  out.protocol_name = std::string(rest.substr(0, colon));
  rest = rest.substr(colon + 1);
  if (out.protocol_name == "sqlite") {
    out.protocol = JdbcProtocol::kSqlite;
    if (rest.empty()) return invalid("names no database file");
    // sqlite-jdbc reads `PATH?k=v` as the file and its settings (busy_timeout, ...); a `file:`
    // URI keeps its query, which SQLite reads itself (mode=ro, cache=shared).
    const size_t query = rest.find('?');
    if (rest.starts_with("file:") || query == std::string_view::npos) {
      out.path = std::string(rest);
    } else {
      out.path = std::string(rest.substr(0, query));
      ParseQuery(rest.substr(query + 1), &out.properties);
    }
    return out;
  }
  int32_t default_port = 0;
  if (out.protocol_name == "postgresql") {
    out.protocol = JdbcProtocol::kPostgresql;
    default_port = 5432;
  } else if (out.protocol_name == "mysql" || out.protocol_name == "mariadb") {
    out.protocol = out.protocol_name == "mysql" ? JdbcProtocol::kMysql : JdbcProtocol::kMariadb;
    default_port = 3306;
  } else {
    return Status::NotSupported("catalog option uri '" + out.masked + "': JDBC protocol '" +
                                out.protocol_name +
                                "' is not supported (sqlite, postgresql, mysql, mariadb)");
  }
  if (!rest.starts_with("//")) return invalid("has no //HOST");
  rest = rest.substr(2);
  const size_t query = rest.find('?');
  std::string_view params = query == std::string_view::npos ? "" : rest.substr(query + 1);
  rest = rest.substr(0, query);
  const size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) out.database = PercentDecode(rest.substr(slash + 1));
  if (authority.find(',') != std::string_view::npos) {
    return invalid("names several hosts, which Sluice does not fail over between");
  }
  std::string_view port_text;
  if (authority.starts_with('[')) {  // [IPv6]:port
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return invalid("has an unclosed '[' in its host");
    out.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (after.starts_with(':')) port_text = after.substr(1);
  } else {
    const size_t port_colon = authority.rfind(':');
    out.host = std::string(authority.substr(0, port_colon));
    if (port_colon != std::string_view::npos) port_text = authority.substr(port_colon + 1);
  }
  if (out.host.empty()) out.host = "localhost";  // pgjdbc's and MariaDB's default
  out.port = default_port;
  if (!port_text.empty()) {
    auto [end, ec] =
        std::from_chars(port_text.data(), port_text.data() + port_text.size(), out.port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || out.port <= 0 ||
        out.port > 65535) {
      return invalid("has a bad port '" + std::string(port_text) + "'");
    }
  }
  ParseQuery(params, &out.properties);
  return out;
}

}  // namespace sluice
