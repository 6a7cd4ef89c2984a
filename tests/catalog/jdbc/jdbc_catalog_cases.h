// The JDBC catalog's test cases, run on each database that can hold its tables: SQLite here
// (jdbc_catalog_sqlite_test.cc), the real PostgreSQL and MariaDB servers in server/. A backend
// gives the catalog options of its database; every case opens catalogs of a catalog key of its
// own (so cases share a server database without seeing each other's rows) over a scratch
// warehouse, with lock.enabled.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "sluice/catalog/jdbc/jdbc_catalog.h"
#include "test_util.h"

namespace sluice::test {

struct JdbcBackend {
  std::string name;
  // The uri and driver options of the database; `dir` is a scratch folder of the case.
  std::function<std::map<std::string, std::string>(const std::string& dir)> options;
};

inline void PrintTo(const JdbcBackend& backend, std::ostream* out) { *out << backend.name; }

class JdbcCatalogCases : public ::testing::TestWithParam<JdbcBackend> {
 protected:
  void SetUp() override;

  const std::string& warehouse() const { return warehouse_; }
  const std::string& catalog_key() const { return catalog_key_; }
  // The options of this case's catalogs (`extra` over them).
  std::map<std::string, std::string> Options(
      const std::map<std::string, std::string>& extra = {}) const;
  // A catalog of its own (its own connections), as another process would open it.
  std::shared_ptr<const JdbcCatalog> OpenCatalog(
      const std::map<std::string, std::string>& extra = {}) const;

  TempDir temp_;
  std::string warehouse_;
  std::string catalog_key_;
};

// The test name suffix of a backend.
std::string BackendName(const ::testing::TestParamInfo<JdbcBackend>& info);

}  // namespace sluice::test
