// ColumnStatsCollector: min / max / null count of one top-level column over the batches a writer
// takes, as Java Paimon's "full" statistics collector computes them: null counts for every type;
// min and max for the types whose internal values are Comparable in Java (BOOLEAN, integers,
// FLOAT, DOUBLE, DECIMAL, CHAR/VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ), none for
// binaries and nested types. Floating-point order is Java's compareTo (-0.0 < 0.0, NaN last).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "sluice/column_vector.h"
#include "sluice/data_type.h"
#include "sluice/types/column_stats.h"

namespace sluice {

class ColumnStatsCollector {
 public:
  explicit ColumnStatsCollector(DataTypePtr type);

  // Adds every row of `v`. REQUIRES: v.type() has the collector's type root.
  void Update(const ColumnVector& v);
  ColumnStats Finish() const;

 private:
  enum class Order : unsigned char {
    kNone,
    kInteger,
    kFloat,
    kDouble,
    kInt128,
    kTimestamp,
    kBytes
  };

  template <typename T, typename Less>
  void UpdateFixed(const ColumnVector& v, T* min, T* max, Less less);

  DataTypePtr type_;
  Order order_;
  int64_t null_count_ = 0;
  bool has_value_ = false;
  int64_t min_int_ = 0, max_int_ = 0;
  float min_float_ = 0, max_float_ = 0;
  double min_double_ = 0, max_double_ = 0;
  int128_t min_int128_ = 0, max_int128_ = 0;
  Timestamp min_ts_, max_ts_;
  std::string min_bytes_, max_bytes_;
};

}  // namespace sluice
