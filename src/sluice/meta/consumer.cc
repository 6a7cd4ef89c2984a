#include "sluice/meta/consumer.h"

#include "sluice/base/json_reader.h"
#include "sluice/base/json_writer.h"

namespace sluice {

namespace {

constexpr std::string_view kNextSnapshot = "nextSnapshot";

}  // namespace

Result<Consumer> Consumer::FromJson(std::string_view json_text) {
  SLUICE_ASSIGN_OR_RETURN(Json json, ParseJson(json_text));
  SLUICE_RETURN_NOT_OK(ExpectObject(json, "(root)"));
  SLUICE_ASSIGN_OR_RETURN(const Json* next, GetMember(json, kNextSnapshot, kNextSnapshot));
  Consumer consumer;
  SLUICE_ASSIGN_OR_RETURN(consumer.next_snapshot, JsonToInt64(*next, kNextSnapshot));
  return consumer;
}

std::string Consumer::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  w.IntField(kNextSnapshot, next_snapshot);
  w.EndObject();
  return std::move(w).Finish();
}

}  // namespace sluice
