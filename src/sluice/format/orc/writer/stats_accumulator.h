// StatsAccumulator: the statistics of one ORC column over a row group, a stripe or the file,
// and their ORC (footer, stripe, row-index) and Paimon (DataFileMeta value stats) forms.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "sluice/format/file_format.h"
#include "sluice/format/orc/orc_metadata.h"

namespace sluice::orc {

// Statistics of one column over a stripe or the file, in typed form.
struct StatsAccumulator {
  uint64_t values = 0;
  bool has_null = false;
  bool has_minmax = false;
  int64_t int_min = 0, int_max = 0;
  int128_t int_sum = 0;
  double double_min = 0, double_max = 0, double_sum = 0;
  std::string string_min, string_max;
  int64_t length_sum = 0;
  int128_t dec_min = 0, dec_max = 0, dec_sum = 0;
  // False once the decimal sum leaves 38 digits: ORC's writer (HiveDecimal arithmetic) then
  // records no sum, and the int128 must not overflow.
  bool dec_sum_set = true;
  Timestamp ts_min, ts_max;
  uint64_t trues = 0;

  void AddInt(int64_t v) {
    if (!has_minmax) {
      int_min = int_max = v;
      has_minmax = true;
    } else {
      int_min = std::min(int_min, v);
      int_max = std::max(int_max, v);
    }
    int_sum += v;
  }
  void AddDouble(double v) {
    if (std::isnan(v)) return;
    if (!has_minmax) {
      double_min = double_max = v;
      has_minmax = true;
    } else {
      double_min = std::min(double_min, v);
      double_max = std::max(double_max, v);
    }
    double_sum += v;
  }
  void AddString(std::string_view v) {
    if (!has_minmax) {
      string_min = string_max = std::string(v);
      has_minmax = true;
    } else {
      if (v < string_min) string_min = std::string(v);
      if (v > string_max) string_max = std::string(v);
    }
    length_sum += static_cast<int64_t>(v.size());
  }
  void AddDecimal(int128_t v) {
    if (!has_minmax) {
      dec_min = dec_max = v;
      has_minmax = true;
    } else {
      dec_min = std::min(dec_min, v);
      dec_max = std::max(dec_max, v);
    }
    AddDecimalSum(v);
  }
  void AddDecimalSum(int128_t v) {
    if (!dec_sum_set) return;
    // 10^38: one more digit than a DECIMAL(38) holds.
    static constexpr int128_t kLimit =
        static_cast<int128_t>(10'000'000'000'000'000'000ULL) * 10'000'000'000'000'000'000ULL;
    int128_t sum;
    if (__builtin_add_overflow(dec_sum, v, &sum) || sum >= kLimit || sum <= -kLimit) {
      dec_sum_set = false;
      return;
    }
    dec_sum = sum;
  }
  void AddTimestamp(const Timestamp& v) {
    if (!has_minmax) {
      ts_min = ts_max = v;
      has_minmax = true;
    } else {
      if (v < ts_min) ts_min = v;
      if (ts_max < v) ts_max = v;
    }
  }
  void Merge(const StatsAccumulator& o) {
    values += o.values;
    has_null = has_null || o.has_null;
    trues += o.trues;
    length_sum += o.length_sum;
    int_sum += o.int_sum;
    double_sum += o.double_sum;
    if (o.dec_sum_set) {
      AddDecimalSum(o.dec_sum);
    } else {
      dec_sum_set = false;
    }
    if (!o.has_minmax) return;
    if (!has_minmax) {
      int_min = o.int_min, int_max = o.int_max;
      double_min = o.double_min, double_max = o.double_max;
      string_min = o.string_min, string_max = o.string_max;
      dec_min = o.dec_min, dec_max = o.dec_max;
      ts_min = o.ts_min, ts_max = o.ts_max;
      has_minmax = true;
      return;
    }
    int_min = std::min(int_min, o.int_min), int_max = std::max(int_max, o.int_max);
    double_min = std::min(double_min, o.double_min);
    double_max = std::max(double_max, o.double_max);
    if (o.string_min < string_min) string_min = o.string_min;
    if (o.string_max > string_max) string_max = o.string_max;
    dec_min = std::min(dec_min, o.dec_min), dec_max = std::max(dec_max, o.dec_max);
    if (o.ts_min < ts_min) ts_min = o.ts_min;
    if (ts_max < o.ts_max) ts_max = o.ts_max;
  }
};

// The ORC statistics of column type `t`.
OrcColumnStatistics ToOrcStats(const StatsAccumulator& a, const OrcType& t);

// The Paimon statistics of a top-level column (DataFileMeta value stats).
ColumnStats ToPaimonStats(const StatsAccumulator& a, const DataType& type, int64_t rows);

}  // namespace sluice::orc
