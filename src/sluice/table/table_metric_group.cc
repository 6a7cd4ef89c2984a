#include "sluice/table/table_metric_group.h"

#include <string_view>

namespace sluice {

MetricGroup TableMetricGroup(MetricRegistryImpl* registry, const std::string& table_path) {
  std::string_view path = table_path;
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  std::string_view table = slash == std::string_view::npos ? path : path.substr(slash + 1);
  std::string_view parent = slash == std::string_view::npos ? "" : path.substr(0, slash);
  size_t parent_slash = parent.rfind('/');
  std::string_view folder =
      parent_slash == std::string_view::npos ? parent : parent.substr(parent_slash + 1);
  std::string_view database;
  if (folder.size() > 3 && folder.substr(folder.size() - 3) == ".db") {
    database = folder.substr(0, folder.size() - 3);
  }
  return registry->Group({{"database", std::string(database)}, {"table", std::string(table)}});
}

}  // namespace sluice
