// TableMetricGroup: the labels of a table's metrics (Java MetricRegistry.createTableMetricGroup):
// `database` and `table`, read from the table's path (<warehouse>/<database>.db/<table>), so
// that every writer, commit and scan of one table under one registry reports into one series.
//
// Thread safety: a function of its arguments.
#pragma once

#include <string>

#include "sluice/base/metric_registry_impl.h"

namespace sluice {

// The group of the table at `table_path` (a branch's metrics are its table's). A path outside
// the `<database>.db` layout gets an empty database and its last component as the table.
MetricGroup TableMetricGroup(MetricRegistryImpl* registry, const std::string& table_path);

}  // namespace sluice
