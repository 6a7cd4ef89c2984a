#include "sluice/catalog/jdbc/jdbc_catalog_options.h"

#include "sluice/meta/option_value.h"

namespace sluice {

namespace {

constexpr std::string_view kPropertyPrefix = "jdbc.";

}  // namespace

Result<JdbcCatalogOptions> JdbcCatalogOptions::Parse(
    const std::map<std::string, std::string>& options, bool object_store_warehouse) {
  JdbcCatalogOptions out;
  auto find = [&](std::string_view key) -> const std::string* {
    auto it = options.find(std::string(key));
    return it == options.end() ? nullptr : &it->second;
  };
  const std::string* uri = find("uri");
  if (uri == nullptr || uri->empty()) {
    return Status::InvalidArgument(
        "catalog option 'uri' is required for metastore=jdbc (e.g. jdbc:sqlite:/path/catalog.db "
        "or jdbc:postgresql://host:5432/database)");
  }
  SLUICE_ASSIGN_OR_RETURN(out.uri, JdbcUri::Parse(*uri));
  if (const std::string* key = find("catalog-key")) {
    if (key->empty()) return Status::InvalidArgument("catalog option 'catalog-key' is empty");
    out.catalog_key = *key;
  }
  out.driver_properties = out.uri.properties;
  for (const auto& [key, value] : options) {
    if (key.starts_with(kPropertyPrefix) && key.size() > kPropertyPrefix.size()) {
      out.driver_properties[key.substr(kPropertyPrefix.size())] = value;
    }
  }
  out.lock_enabled = object_store_warehouse;
  if (const std::string* v = find("lock.enabled")) {
    SLUICE_ASSIGN_OR_RETURN(out.lock_enabled, ParseBooleanOption("lock.enabled", *v));
  }
  if (const std::string* v = find("lock.type"); v != nullptr && *v != "jdbc") {
    return Status::NotSupported("catalog option lock.type=" + *v +
                                ": the JDBC catalog's own lock (jdbc) is the only one Sluice has");
  }
  if (const std::string* v = find("lock-acquire-timeout")) {
    SLUICE_ASSIGN_OR_RETURN(out.lock_acquire_timeout,
                            ParseDurationOption("lock-acquire-timeout", *v));
  }
  if (const std::string* v = find("lock-check-max-sleep")) {
    SLUICE_ASSIGN_OR_RETURN(out.lock_check_max_sleep,
                            ParseDurationOption("lock-check-max-sleep", *v));
  }
  if (const std::string* v = find("lock-key-max-length")) {
    SLUICE_ASSIGN_OR_RETURN(out.lock_key_max_length, ParseIntOption("lock-key-max-length", *v));
    if (out.lock_key_max_length <= 0) {
      return Status::InvalidArgument("catalog option lock-key-max-length must be positive: " + *v);
    }
  }
  if (const std::string* v = find("client-pool-size")) {
    SLUICE_ASSIGN_OR_RETURN(out.client_pool_size, ParseIntOption("client-pool-size", *v));
    if (out.client_pool_size <= 0) {
      return Status::InvalidArgument("catalog option client-pool-size must be positive: " + *v);
    }
  }
  if (const std::string* v = find("sync-all-properties")) {
    SLUICE_ASSIGN_OR_RETURN(out.sync_all_properties, ParseBooleanOption("sync-all-properties", *v));
  }
  return out;
}

}  // namespace sluice
