#include "sluice/meta/snapshot.h"

#include "sluice/base/json_reader.h"

namespace sluice {

namespace {

constexpr std::string_view kCommitKindNames[] = {"APPEND", "COMPACT", "OVERWRITE", "ANALYZE"};

constexpr std::string_view kOperationNames[] = {"WRITE",
                                                "OVERWRITE",
                                                "DELETE",
                                                "TRUNCATE",
                                                "UPDATE",
                                                "MERGE",
                                                "CREATE_TABLE_AS_SELECT",
                                                "REPLACE_TABLE_AS_SELECT",
                                                "CREATE_OR_REPLACE_TABLE_AS_SELECT"};

constexpr std::string_view kKeyNames[] = {
    "version",
    "uuid",
    "id",
    "schemaId",
    "baseManifestList",
    "baseManifestListSize",
    "deltaManifestList",
    "deltaManifestListSize",
    "changelogManifestList",
    "changelogManifestListSize",
    "indexManifest",
    "commitUser",
    "writerVersion",
    "commitIdentifier",
    "commitKind",
    "timeMillis",
    "totalRecordCount",
    "deltaRecordCount",
    "changelogRecordCount",
    "watermark",
    "statistics",
    "properties",
    "nextRowId",
    "operation",
};
static_assert(std::size(kKeyNames) == static_cast<size_t>(SnapshotKey::kOperation) + 1);

// Reads the keys of a snapshot object.
class SnapshotReader {
 public:
  explicit SnapshotReader(const Json& json) : json_(json) {}

  // The member for `key`, or nullptr when absent or null.
  const Json* Optional(SnapshotKey key) {
    const Json* member = FindMember(json_, SnapshotKeyName(key));
    return member != nullptr && member->is_null() ? nullptr : member;
  }

  Result<const Json*> Required(SnapshotKey key) {
    std::string_view name = SnapshotKeyName(key);
    SLUICE_ASSIGN_OR_RETURN(const Json* member, GetMember(json_, name, name));
    return member;
  }

  Status ReadInt64(SnapshotKey key, int64_t* out) {
    SLUICE_ASSIGN_OR_RETURN(const Json* member, Required(key));
    SLUICE_ASSIGN_OR_RETURN(*out, JsonToInt64(*member, SnapshotKeyName(key)));
    return Status::OK();
  }

  Status ReadString(SnapshotKey key, std::string* out) {
    SLUICE_ASSIGN_OR_RETURN(const Json* member, Required(key));
    SLUICE_ASSIGN_OR_RETURN(*out, JsonToString(*member, SnapshotKeyName(key)));
    return Status::OK();
  }

  Status ReadOptionalInt64(SnapshotKey key, std::optional<int64_t>* out) {
    if (const Json* member = Optional(key); member != nullptr) {
      SLUICE_ASSIGN_OR_RETURN(*out, JsonToInt64(*member, SnapshotKeyName(key)));
    }
    return Status::OK();
  }

  Status ReadOptionalString(SnapshotKey key, std::optional<std::string>* out) {
    if (const Json* member = Optional(key); member != nullptr) {
      SLUICE_ASSIGN_OR_RETURN(*out, JsonToString(*member, SnapshotKeyName(key)));
    }
    return Status::OK();
  }

 private:
  const Json& json_;
};

}  // namespace

std::string_view CommitKindName(CommitKind kind) {
  return kCommitKindNames[static_cast<int>(kind)];
}

Result<CommitKind> CommitKindFromName(std::string_view name) {
  for (size_t i = 0; i < std::size(kCommitKindNames); ++i) {
    if (kCommitKindNames[i] == name) return static_cast<CommitKind>(i);
  }
  return Status::InvalidArgument("unknown commit kind '" + std::string(name) + "'");
}

std::string_view SnapshotOperationName(SnapshotOperation op) {
  return kOperationNames[static_cast<int>(op)];
}

Result<SnapshotOperation> SnapshotOperationFromName(std::string_view name) {
  for (size_t i = 0; i < std::size(kOperationNames); ++i) {
    if (kOperationNames[i] == name) return static_cast<SnapshotOperation>(i);
  }
  return Status::InvalidArgument("unknown operation '" + std::string(name) + "'");
}

std::string_view SnapshotKeyName(SnapshotKey key) { return kKeyNames[static_cast<int>(key)]; }

Result<Snapshot> Snapshot::FromJson(std::string_view json_text) {
  SLUICE_ASSIGN_OR_RETURN(Json json, ParseJson(json_text));
  return FromJsonValue(json);
}

Result<Snapshot> Snapshot::FromJsonValue(const Json& json) {
  SLUICE_RETURN_NOT_OK(ExpectObject(json, "(root)"));
  Snapshot s;
  SnapshotReader r(json);
  using K = SnapshotKey;

  SLUICE_ASSIGN_OR_RETURN(const Json* version, r.Required(K::kVersion));
  SLUICE_ASSIGN_OR_RETURN(s.version, JsonToInt32(*version, "version"));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalString(K::kUuid, &s.uuid));
  SLUICE_RETURN_NOT_OK(r.ReadInt64(K::kId, &s.id));
  SLUICE_RETURN_NOT_OK(r.ReadInt64(K::kSchemaId, &s.schema_id));
  SLUICE_RETURN_NOT_OK(r.ReadString(K::kBaseManifestList, &s.base_manifest_list));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalInt64(K::kBaseManifestListSize, &s.base_manifest_list_size));
  SLUICE_RETURN_NOT_OK(r.ReadString(K::kDeltaManifestList, &s.delta_manifest_list));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalInt64(K::kDeltaManifestListSize, &s.delta_manifest_list_size));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalString(K::kChangelogManifestList, &s.changelog_manifest_list));
  SLUICE_RETURN_NOT_OK(
      r.ReadOptionalInt64(K::kChangelogManifestListSize, &s.changelog_manifest_list_size));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalString(K::kIndexManifest, &s.index_manifest));
  SLUICE_RETURN_NOT_OK(r.ReadString(K::kCommitUser, &s.commit_user));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalString(K::kWriterVersion, &s.writer_version));
  SLUICE_RETURN_NOT_OK(r.ReadInt64(K::kCommitIdentifier, &s.commit_identifier));

  std::string commit_kind;
  SLUICE_RETURN_NOT_OK(r.ReadString(K::kCommitKind, &commit_kind));
  Result<CommitKind> kind = CommitKindFromName(commit_kind);
  if (!kind.ok()) return Status::Corruption("field 'commitKind': " + kind.status().message());
  s.commit_kind = *kind;

  SLUICE_RETURN_NOT_OK(r.ReadInt64(K::kTimeMillis, &s.time_millis));

  SLUICE_RETURN_NOT_OK(r.ReadOptionalInt64(K::kTotalRecordCount, &s.total_record_count));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalInt64(K::kDeltaRecordCount, &s.delta_record_count));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalInt64(K::kChangelogRecordCount, &s.changelog_record_count));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalInt64(K::kWatermark, &s.watermark));
  SLUICE_RETURN_NOT_OK(r.ReadOptionalString(K::kStatistics, &s.statistics));

  if (const Json* properties = r.Optional(K::kProperties); properties != nullptr) {
    SLUICE_RETURN_NOT_OK(ExpectObject(*properties, "properties"));
    s.properties.emplace();
    for (auto it = properties->begin(); it != properties->end(); ++it) {
      SLUICE_ASSIGN_OR_RETURN(std::string value,
                              JsonToString(it.value(), JsonFieldPath("properties", it.key())));
      s.properties->emplace_back(it.key(), std::move(value));
    }
  }

  SLUICE_RETURN_NOT_OK(r.ReadOptionalInt64(K::kNextRowId, &s.next_row_id));

  std::optional<std::string> operation;
  SLUICE_RETURN_NOT_OK(r.ReadOptionalString(K::kOperation, &operation));
  if (operation) {
    Result<SnapshotOperation> op = SnapshotOperationFromName(*operation);
    if (!op.ok()) return Status::Corruption("field 'operation': " + op.status().message());
    s.operation = *op;
  }
  return s;
}

void Snapshot::WriteJsonFields(JsonWriter* w) const {
  using K = SnapshotKey;
  auto key = [&](K k) { w->Key(SnapshotKeyName(k)); };
  auto opt_string = [&](K k, const std::optional<std::string>& v) {
    if (v) {
      key(k);
      w->String(*v);
    }
  };
  auto opt_int = [&](K k, const std::optional<int64_t>& v) {
    if (v) {
      key(k);
      w->Int(*v);
    }
  };

  w->IntField(SnapshotKeyName(K::kVersion), version);
  opt_string(K::kUuid, uuid);
  w->IntField(SnapshotKeyName(K::kId), id);
  w->IntField(SnapshotKeyName(K::kSchemaId), schema_id);
  w->StringField(SnapshotKeyName(K::kBaseManifestList), base_manifest_list);
  opt_int(K::kBaseManifestListSize, base_manifest_list_size);
  w->StringField(SnapshotKeyName(K::kDeltaManifestList), delta_manifest_list);
  opt_int(K::kDeltaManifestListSize, delta_manifest_list_size);
  opt_string(K::kChangelogManifestList, changelog_manifest_list);
  opt_int(K::kChangelogManifestListSize, changelog_manifest_list_size);
  opt_string(K::kIndexManifest, index_manifest);
  w->StringField(SnapshotKeyName(K::kCommitUser), commit_user);
  opt_string(K::kWriterVersion, writer_version);
  w->IntField(SnapshotKeyName(K::kCommitIdentifier), commit_identifier);
  w->StringField(SnapshotKeyName(K::kCommitKind), CommitKindName(commit_kind));
  w->IntField(SnapshotKeyName(K::kTimeMillis), time_millis);
  opt_int(K::kTotalRecordCount, total_record_count);
  opt_int(K::kDeltaRecordCount, delta_record_count);
  opt_int(K::kChangelogRecordCount, changelog_record_count);
  opt_int(K::kWatermark, watermark);
  opt_string(K::kStatistics, statistics);
  if (properties) {
    key(K::kProperties);
    w->BeginObject();
    for (const auto& [k, v] : *properties) w->StringField(k, v);
    w->EndObject();
  }
  opt_int(K::kNextRowId, next_row_id);
  if (operation) {
    key(K::kOperation);
    w->String(SnapshotOperationName(*operation));
  }
}

std::string Snapshot::ToJson() const {
  JsonWriter w;
  w.BeginObject();
  WriteJsonFields(&w);
  w.EndObject();
  return std::move(w).Finish();
}

}  // namespace sluice
