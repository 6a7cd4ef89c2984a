#include "sluice/meta/tag.h"

#include <cmath>

#include "sluice/base/json_reader.h"
#include "sluice/base/json_writer.h"

namespace sluice {

namespace {

constexpr int32_t kNanosPerSecond = 1000000000;

Result<TagDuration> DurationFromJson(const Json& value) {
  constexpr std::string_view kField = "tagTimeRetained";
  if (value.is_number_integer()) {
    SLUICE_ASSIGN_OR_RETURN(int64_t seconds, JsonToInt64(value, kField));
    if (seconds < 0) return Status::Corruption("field 'tagTimeRetained': duration out of range");
    return TagDuration{seconds, 0};
  }
  if (!value.is_number_float()) {
    return Status::Corruption("field 'tagTimeRetained': expected a number, got " +
                              std::string(JsonTypeName(value)));
  }
  // long double keeps 64 mantissa bits: exact nanoseconds for durations up to ~300 years.
  const long double v = value.get<long double>();
  // Negative retentions do not occur (and Jackson does not write them consistently).
  if (!std::isfinite(v) || v >= 9.2e18L || v < 0) {
    return Status::Corruption("field 'tagTimeRetained': duration out of range");
  }
  long double whole = std::floor(v);
  auto seconds = static_cast<int64_t>(whole);
  auto nanos = static_cast<int64_t>(std::llround((v - whole) * kNanosPerSecond));
  if (nanos >= kNanosPerSecond) {
    ++seconds;
    nanos -= kNanosPerSecond;
  }
  return TagDuration{seconds, static_cast<int32_t>(nanos)};
}

}  // namespace

std::string TagDuration::ToJacksonNumber() const {
  // Jackson: new BigDecimal("<seconds>.<9 nano digits>").toString(), or "0.0" for zero.
  if (nanos == 0) {
    return seconds == 0 ? "0.0" : std::to_string(seconds) + ".000000000";
  }
  std::string nano_digits = std::to_string(nanos);
  if (seconds == 0 && nanos < 1000) {
    // BigDecimal.toString switches to scientific notation when the exponent is below -6.
    std::string out(1, nano_digits[0]);
    if (nano_digits.size() > 1) out += "." + nano_digits.substr(1);
    return out + "E" + std::to_string(static_cast<int>(nano_digits.size()) - 10);
  }
  return std::to_string(seconds) + "." + std::string(9 - nano_digits.size(), '0') + nano_digits;
}

std::vector<int64_t> Tag::LocalDateTimeArray(int32_t year, int32_t month, int32_t day, int32_t hour,
                                             int32_t minute, int32_t second, int32_t nanos) {
  std::vector<int64_t> out = {year, month, day, hour, minute};
  if (second > 0 || nanos > 0) {
    out.push_back(second);
    if (nanos > 0) out.push_back(nanos);
  }
  return out;
}

Result<Tag> Tag::FromJson(std::string_view json_text) {
  SLUICE_ASSIGN_OR_RETURN(Json json, ParseJson(json_text));
  return FromJsonValue(json);
}

Result<Tag> Tag::FromJsonValue(const Json& json) {
  Tag tag;
  SLUICE_ASSIGN_OR_RETURN(tag.snapshot, Snapshot::FromJsonValue(json));
  if (const Json* create = FindMember(json, "tagCreateTime");
      create != nullptr && !create->is_null()) {
    SLUICE_RETURN_NOT_OK(ExpectArray(*create, "tagCreateTime"));
    if (create->size() < 5 || create->size() > 7) {
      return Status::Corruption("field 'tagCreateTime': expected 5 to 7 elements, got " +
                                std::to_string(create->size()));
    }
    tag.create_time.emplace();
    for (size_t i = 0; i < create->size(); ++i) {
      SLUICE_ASSIGN_OR_RETURN(int64_t v,
                              JsonToInt64((*create)[i], JsonIndexPath("tagCreateTime", i)));
      tag.create_time->push_back(v);
    }
  }
  if (const Json* retained = FindMember(json, "tagTimeRetained");
      retained != nullptr && !retained->is_null()) {
    SLUICE_ASSIGN_OR_RETURN(tag.time_retained, DurationFromJson(*retained));
  }
  return tag;
}

std::string Tag::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  snapshot.WriteJsonFields(&w);
  if (create_time) {
    w.Key("tagCreateTime");
    w.BeginArray();
    for (int64_t v : *create_time) w.Int(v);
    w.EndArray();
  }
  if (time_retained) {
    w.Key("tagTimeRetained");
    w.RawNumber(time_retained->ToJacksonNumber());
  }
  w.EndObject();
  return std::move(w).Finish();
}

}  // namespace sluice
