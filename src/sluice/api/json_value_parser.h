// Values from JSON, in the encoding of the public value_parser.h (which parses text): the
// JSON-lines reader's value decoding, behind the public API because the JSON type is
// nlohmann's.
//
// Thread safety: stateless functions.
#pragma once

#include "sluice/base/json_fwd.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"
#include "sluice/value_parser.h"

namespace sluice {

// A JSON value. Null for JSON null (the caller checks NOT NULL).
Result<Value> ParseJsonValue(const Json& json, const DataType& type);

}  // namespace sluice
