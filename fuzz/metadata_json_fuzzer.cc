// libFuzzer target: the input is a JSON metadata file. Byte 0 selects what it is read as
// (schema, snapshot, tag, or an atomic type string); the rest is the text. Whatever parses must
// write back to text that parses to the same value and writes the same bytes again. Any other
// outcome but a crash, leak or hang is fine.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sluice/base/json_reader.h"
#include "sluice/meta/snapshot.h"
#include "sluice/meta/table_schema.h"
#include "sluice/meta/tag.h"
#include "sluice/types/data_type_json.h"

namespace {

// Aborts (a fuzzer finding) when writing is not stable.
template <typename T>
void CheckStable(const T& value) {
  const std::string once = value.ToJson();
  sluice::Result<T> again = T::FromJson(once);
  if (!again.ok() || again->ToJson() != once) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0:
      if (auto schema = sluice::TableSchema::FromJson(text); schema.ok()) CheckStable(*schema);
      break;
    case 1:
      if (auto snapshot = sluice::Snapshot::FromJson(text); snapshot.ok()) {
        CheckStable(*snapshot);
      }
      break;
    case 2:
      if (auto tag = sluice::Tag::FromJson(text); tag.ok()) CheckStable(*tag);
      break;
    default:
      if (auto type = sluice::ParseAtomicDataType(text); type.ok()) {
        // ARRAY / MULTISET / VECTOR suffix forms print as JSON objects: re-read that form.
        auto json = sluice::ParseJson(sluice::DataTypeToJson(**type));
        if (!json.ok()) std::abort();
        auto again = sluice::DataTypeFromJson(*json);
        if (!again.ok() || !(*again)->Equals(**type)) std::abort();
      }
      break;
  }
  return 0;
}
