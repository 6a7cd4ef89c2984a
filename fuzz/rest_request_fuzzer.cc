// libFuzzer target: the REST catalog server's request reader (catalog/rest/rest_request.h) on
// arbitrary requests. Byte 0 picks the method (GET, POST, DELETE, PUT); the rest is the request
// target up to the first '\n', then the body. Reading must answer a request or an error on any
// input, never crash; and whatever it accepts must hold:
//   - every name it read (database, table, branch, rename target, a committed snapshot's
//     manifest lists) passes CheckRestName: no request that reads can reach outside the
//     warehouse;
//   - the schema changes it read write back (SchemaChangeToRestJson) to JSON that reads to the
//     same JSON again, and a table it read writes back to a schema that reads to the same;
//   - a decoded name encodes (Java URLEncoder) to text that decodes back to it.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "sluice/base/json_reader.h"
#include "sluice/catalog/rest/rest_request.h"
#include "sluice/catalog/rest/rest_schema_json.h"
#include "sluice/catalog/rest/rest_url.h"

namespace {

using namespace sluice;        // NOLINT: a fuzz target, not a library
using namespace sluice::rest;  // NOLINT

constexpr const char* kMethods[] = {"GET", "POST", "DELETE", "PUT"};

void CheckName(const std::string& name, const RestLimits& limits) {
  if (!CheckRestName(name, "name", limits.max_name_bytes).ok()) std::abort();
  std::optional<std::string> back = DecodeUrlComponent(EncodeUrlComponent(name));
  if (!back || *back != name) std::abort();
}

void CheckAccepted(const RestRequest& request, const RestLimits& limits) {
  if (!request.database.empty()) CheckName(request.database, limits);
  if (!request.table.empty()) CheckName(request.table, limits);
  if (!request.to_database.empty() || !request.to_table.empty()) {
    CheckName(request.to_database, limits);
    CheckName(request.to_table, limits);
  }
  CheckName(request.branch, limits);
  for (const SchemaChange& change : request.changes) {
    const Json written = SchemaChangeToRestJson(change);
    Result<SchemaChange> again = SchemaChangeFromRestJson(written, "change");
    if (!again.ok() || SchemaChangeToRestJson(*again) != written) std::abort();
  }
  if (request.operation == RestOperation::kCommitTable) {
    CheckName(request.snapshot.base_manifest_list, limits);
    CheckName(request.snapshot.delta_manifest_list, limits);
  }
  if (request.operation == RestOperation::kCreateTable) {
    const Json written = NewTableToRestJson(request.table_spec.columns, request.table_spec);
    Result<NewTableSpec> again = NewTableFromRestJson(written, "schema");
    if (!again.ok() || NewTableToRestJson(again->columns, *again) != written) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view method = kMethods[data[0] % 4];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  const size_t newline = rest.find('\n');
  const std::string_view target = rest.substr(0, newline);
  const std::string_view body =
      newline == std::string_view::npos ? std::string_view() : rest.substr(newline + 1);
  RestLimits limits;
  limits.max_body_bytes = 64 * 1024;
  std::variant<RestRequest, RestError> parsed =
      ParseRestRequest(method, target, body, "paimon", limits);
  if (const RestRequest* request = std::get_if<RestRequest>(&parsed)) {
    CheckAccepted(*request, limits);
  } else {
    const RestError& error = std::get<RestError>(parsed);
    if (error.code < 400 || error.code > 599 || error.message.empty()) std::abort();
  }
  return 0;
}
