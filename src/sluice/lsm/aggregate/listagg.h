// The aggregate function `listagg` (Java FieldListaggAgg): STRING values joined with
// `fields.<f>.list-agg-delimiter`; blank values are skipped. With `fields.<f>.distinct`, a
// token (the input split on the whole delimiter) already in the accumulator is not added
// again. No retraction.
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include <string>
#include <utility>

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldListaggAgg final : public FieldAggregator {
 public:
  FieldListaggAgg(std::string name, DataTypePtr type, std::string delimiter, bool distinct)
      : FieldAggregator(std::move(name), std::move(type)),
        delimiter_(std::move(delimiter)),
        distinct_(distinct) {}
  Result<Value> Agg(const Value& acc, const Value& in) override;

 private:
  std::string delimiter_;
  bool distinct_;
};

}  // namespace sluice
