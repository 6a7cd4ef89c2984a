// JdbcCatalogOptions: the catalog options of a JDBC catalog (Java JdbcCatalogOptions,
// CatalogOptions and JdbcCatalog.PROPERTY_PREFIX), read once when the catalog opens:
//
//   uri                    the JDBC URL (jdbc_uri.h); required
//   catalog-key            the key of this catalog's rows in the shared tables ("jdbc")
//   jdbc.<property>        a driver property (jdbc.user, jdbc.password, ...); over the uri's
//   lock.enabled           commits and table DDL under the distributed lock table; default:
//                          on for an object-store warehouse, off otherwise (as Java)
//   lock.type              only "jdbc" (the default) has an implementation
//   lock-acquire-timeout   how long to wait for the lock, and when a lock row expires ("8 min")
//   lock-check-max-sleep   the longest pause between tries ("8 s")
//   lock-key-max-length    the width of the lock table's key column (255)
//   client-pool-size       idle connections kept open (2)
//   sync-all-properties    keep paimon_table_properties in step with the schema (true)
//
// Thread safety: a value type.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "sluice/catalog/jdbc/jdbc_uri.h"
#include "sluice/result.h"

namespace sluice {

struct JdbcCatalogOptions {
  JdbcUri uri;
  std::string catalog_key = "jdbc";
  // The jdbc.* options without the prefix, over the uri's query parameters.
  std::map<std::string, std::string> driver_properties;
  bool lock_enabled = false;
  std::chrono::milliseconds lock_acquire_timeout{8 * 60 * 1000};
  std::chrono::milliseconds lock_check_max_sleep{8 * 1000};
  int32_t lock_key_max_length = 255;
  int32_t client_pool_size = 2;
  bool sync_all_properties = true;

  // InvalidArgument naming the option and its value (a password's masked) when one is missing
  // or does not parse; NotSupported for another lock.type. `object_store_warehouse` is the
  // default of lock.enabled.
  static Result<JdbcCatalogOptions> Parse(const std::map<std::string, std::string>& options,
                                          bool object_store_warehouse);
};

}  // namespace sluice
