// Test helper: a DataField from id, name and type (no description, no default value).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "sluice/data_type.h"

namespace sluice::test {

inline DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

}  // namespace sluice::test
