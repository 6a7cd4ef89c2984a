// The `Json` document type by declaration only, for headers whose functions take or return one
// (schema, snapshot and tag parsing, type JSON). nlohmann/json.hpp costs about three CPU
// seconds in every translation unit that includes it; a header naming `const Json&` needs only
// the forward declaration, and the .cc files that read members include base/json_reader.h.
//
// Why object members keep file order and numbers their precision: base/json_reader.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace sluice {

using Json = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool,
                                  std::int64_t, std::uint64_t, long double>;

}  // namespace sluice
