#include "sluice/lsm/changelog_merge_function_wrapper.h"

#include <string>
#include <string_view>

namespace sluice {

Result<std::optional<RecordEqualiser>> RecordEqualiser::FromOptions(const TableSchema& schema,
                                                                    const CoreOptions& options) {
  if (!options.changelog_producer_row_deduplicate()) return std::optional<RecordEqualiser>();
  std::vector<bool> ignored(schema.fields().size(), false);
  const std::string* list = options.Find("changelog-producer.row-deduplicate-ignore-fields");
  std::string_view rest = list != nullptr ? std::string_view(*list) : std::string_view();
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view name = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (name.empty()) continue;
    const int index = schema.FieldIndex(std::string(name));
    if (index < 0) {
      return Status::InvalidArgument("changelog-producer.row-deduplicate-ignore-fields names '" +
                                     std::string(name) + "', which is not a column of the table");
    }
    ignored[static_cast<size_t>(index)] = true;
  }
  return std::optional<RecordEqualiser>(RecordEqualiser(std::move(ignored)));
}

bool RecordEqualiser::Equals(const ValueList& a, const ValueList& b) const {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i < ignored_.size() && ignored_[i]) continue;
    if (!(a[i] == b[i])) return false;
  }
  return true;
}

void ChangelogMergeFunctionWrapper::AddChangelog(RowKind kind, const KeyValue& from) {
  KeyValue& kv = changelog_.emplace_back(from);
  kv.kind = kind;
}

void ChangelogMergeFunctionWrapper::SetChangelog(const std::optional<KeyValue>& before,
                                                 const std::optional<KeyValue>& after) {
  if (!IsAddition(before)) {
    if (IsAddition(after)) AddChangelog(RowKind::kInsert, *after);
    return;
  }
  if (!IsAddition(after)) {
    AddChangelog(RowKind::kDelete, *before);
  } else if (!equaliser_ || !equaliser_->Equals(before->value, after->value)) {
    AddChangelog(RowKind::kUpdateBefore, *before);
    AddChangelog(RowKind::kUpdateAfter, *after);
  }
}

}  // namespace sluice
