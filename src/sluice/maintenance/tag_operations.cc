#include "sluice/maintenance/tag_operations.h"

#include <chrono>

#include "sluice/maintenance/tag_deletion.h"
#include "sluice/types/time_zone.h"

namespace sluice {

namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The epoch millis of a Tag create-time array: a wall clock in the process's zone (Java's
// LocalDateTime in the JVM's).
int64_t CreateTimeMillis(const std::vector<int64_t>& t) {
  using namespace std::chrono;
  const sys_days day =
      year_month_day{year{static_cast<int>(t[0])}, month{static_cast<unsigned>(t[1])},
                     std::chrono::day{static_cast<unsigned>(t[2])}};
  int64_t millis = duration_cast<milliseconds>(day.time_since_epoch()).count();
  millis += (t[3] * 3600 + t[4] * 60 + (t.size() > 5 ? t[5] : 0)) * 1000;
  if (t.size() > 6) millis += t[6] / 1000000;
  return TimeZone::Process()->UtcMillis(millis);
}

int64_t DurationMillis(const TagDuration& d) { return d.seconds * 1000 + d.nanos / 1000000; }

Result<Snapshot> SnapshotToTag(const FileStoreTable& table, const TagRequest& request,
                               std::string_view what) {
  if (request.snapshot_id) return FindSnapshotForTag(table, *request.snapshot_id);
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table.snapshot_manager().LatestSnapshot());
  if (!latest) {
    return Status::InvalidArgument("cannot " + std::string(what) +
                                   " tag because latest snapshot doesn't exist in " + table.path());
  }
  return *std::move(latest);
}

std::optional<TagDuration> RetentionOf(const FileStoreTable& table, std::optional<int64_t> millis) {
  if (!millis) millis = table.options().tag_default_time_retained_millis();
  if (!millis) return std::nullopt;
  return TagDurationOfMillis(*millis);
}

}  // namespace

std::vector<int64_t> TagCreateTimeOf(int64_t epoch_millis) {
  using namespace std::chrono;
  const sys_time<milliseconds> tp{milliseconds{TimeZone::Process()->LocalMillis(epoch_millis)}};
  const sys_days day = floor<days>(tp);
  const year_month_day ymd{day};
  const int64_t ms_of_day = (tp - day).count();
  return Tag::LocalDateTimeArray(static_cast<int32_t>(static_cast<int>(ymd.year())),
                                 static_cast<int32_t>(static_cast<unsigned>(ymd.month())),
                                 static_cast<int32_t>(static_cast<unsigned>(ymd.day())),
                                 static_cast<int32_t>(ms_of_day / 3600000),
                                 static_cast<int32_t>(ms_of_day / 60000 % 60),
                                 static_cast<int32_t>(ms_of_day / 1000 % 60),
                                 static_cast<int32_t>(ms_of_day % 1000 * 1000000));
}

TagDuration TagDurationOfMillis(int64_t millis) {
  return TagDuration{millis / 1000, static_cast<int32_t>(millis % 1000 * 1000000)};
}

Result<Snapshot> FindSnapshotForTag(const FileStoreTable& table, int64_t snapshot_id) {
  SLUICE_ASSIGN_OR_RETURN(bool exists, table.snapshot_manager().SnapshotExists(snapshot_id));
  if (exists) return table.snapshot_manager().LoadSnapshot(snapshot_id);
  SLUICE_ASSIGN_OR_RETURN(auto tags, table.tag_manager().ListTags());
  for (auto& [name, tag] : tags) {
    if (tag.snapshot.id == snapshot_id) return std::move(tag.snapshot);
  }
  return Status::NotFound("cannot create tag because given snapshot #" +
                          std::to_string(snapshot_id) + " doesn't exist in " + table.path());
}

Result<Snapshot> CreateTag(const FileStoreTable& table, std::string_view name,
                           const TagRequest& request) {
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, SnapshotToTag(table, request, "create"));
  SLUICE_RETURN_NOT_OK(table.tag_manager().CreateTag(
      snapshot, name, RetentionOf(table, request.time_retained_millis),
      TagCreateTimeOf(request.now_millis.value_or(NowMillis())), request.ignore_if_exists));
  return snapshot;
}

Result<Snapshot> ReplaceTag(const FileStoreTable& table, std::string_view name,
                            const TagRequest& request) {
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, SnapshotToTag(table, request, "replace"));
  SLUICE_RETURN_NOT_OK(table.tag_manager().ReplaceTag(
      snapshot, name, RetentionOf(table, request.time_retained_millis),
      TagCreateTimeOf(request.now_millis.value_or(NowMillis()))));
  return snapshot;
}

Result<Snapshot> CreateTagFromTimestamp(const FileStoreTable& table, std::string_view name,
                                        int64_t timestamp_millis,
                                        std::optional<int64_t> time_retained_millis,
                                        std::optional<int64_t> now_millis) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot,
                          table.snapshot_manager().LaterOrEqualTimeMillis(timestamp_millis));
  // An expired snapshot that a tag keeps may be closer to the time (Java walks the tags too).
  SLUICE_ASSIGN_OR_RETURN(auto tags, table.tag_manager().ListTags());
  for (auto& [tag_name, tag] : tags) {
    if (timestamp_millis <= tag.snapshot.time_millis) {
      if (!snapshot || tag.snapshot.time_millis < snapshot->time_millis) snapshot = tag.snapshot;
      break;
    }
  }
  if (!snapshot) {
    return Status::NotFound("could not find any snapshot whose commit-time later than " +
                            std::to_string(timestamp_millis) + " in " + table.path());
  }
  SLUICE_RETURN_NOT_OK(
      table.tag_manager().CreateTag(*snapshot, name, RetentionOf(table, time_retained_millis),
                                    TagCreateTimeOf(now_millis.value_or(NowMillis()))));
  return *std::move(snapshot);
}

Status DeleteTags(const FileStoreTable& table, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    SLUICE_RETURN_NOT_OK(DeleteTagAndUnusedFiles(table, name).status());
  }
  return Status::OK();
}

Status RenameTag(const FileStoreTable& table, std::string_view from, std::string_view to) {
  return table.tag_manager().RenameTag(from, to);
}

Result<std::vector<std::string>> ExpireTags(const FileStoreTable& table,
                                            const ExpireTagsOptions& options) {
  const int64_t now = options.now_millis.value_or(NowMillis());
  SLUICE_ASSIGN_OR_RETURN(auto tags, table.tag_manager().ListTags());
  std::vector<std::string> expired;
  for (const auto& [name, tag] : tags) {
    std::optional<int64_t> created;
    if (tag.create_time && tag.time_retained) {
      created = CreateTimeMillis(*tag.create_time);
    } else if (options.older_than_millis) {
      Result<FileStatus> status = table.io()->GetStatus(table.tag_manager().tag_path(name));
      if (!status.ok()) continue;  // deleted meanwhile, as Java skips it
      created = status->modification_time_ms;
    } else {
      continue;
    }
    const bool retention_passed =
        tag.time_retained && now > *created + DurationMillis(*tag.time_retained);
    const bool older_than = options.older_than_millis && *options.older_than_millis > *created;
    if (!retention_passed && !older_than) continue;
    Result<int64_t> deleted = DeleteTagAndUnusedFiles(table, name);
    if (deleted.status().IsNotFound()) continue;
    SLUICE_RETURN_NOT_OK(deleted.status());
    expired.push_back(name);
  }
  return expired;
}

}  // namespace sluice
