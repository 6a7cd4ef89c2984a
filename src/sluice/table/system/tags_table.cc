// $tags (Java TagsTable): one row per tag of the branch, ordered by tagged snapshot.
#include <chrono>

#include "sluice/table/system/system_table.h"
#include "sluice/table/system/system_table_text.h"

namespace sluice {

DataTypePtr TagsTableType() {
  static const DataTypePtr type = DataType::Row({
      SystemField(0, "tag_name", DataType::String(false)),
      SystemField(1, "snapshot_id", DataType::BigInt(false)),
      SystemField(2, "schema_id", DataType::BigInt(false)),
      SystemField(3, "commit_time", DataType::Timestamp(3, false)),
      SystemField(4, "record_count", DataType::BigInt()),
      SystemField(5, "create_time", DataType::Timestamp(3)),
      SystemField(6, "time_retained", DataType::String()),
  });
  return type;
}

namespace {

// The Tag's LocalDateTime array as a timestamp (wall-clock time taken as UTC).
Value CreateTimeValue(const std::vector<int64_t>& t) {
  using namespace std::chrono;
  const sys_days day =
      year_month_day{year{static_cast<int>(t[0])}, month{static_cast<unsigned>(t[1])},
                     std::chrono::day{static_cast<unsigned>(t[2])}};
  const int64_t seconds = duration_cast<std::chrono::seconds>(day.time_since_epoch()).count() +
                          t[3] * 3600 + t[4] * 60 + (t.size() > 5 ? t[5] : 0);
  const int64_t nanos = t.size() > 6 ? t[6] : 0;
  return Value::FromTimestamp(
      Timestamp{seconds * 1000 + nanos / 1000000, static_cast<int32_t>(nanos % 1000000)});
}

class TagsTable final : public SystemTable {
 public:
  explicit TagsTable(std::shared_ptr<const FileStoreTable> table)
      : table_(std::move(table)), type_(TagsTableType()) {}

  const DataTypePtr& row_type() const override { return type_; }

  Result<ColumnBatch> Read() const override {
    SLUICE_ASSIGN_OR_RETURN(auto tags, table_->tag_manager().ListTags());
    ColumnBatch batch(type_);
    for (const auto& [name, tag] : tags) {
      SLUICE_RETURN_NOT_OK(batch.AppendRow({
          Value::String(name),
          Value::Int64(tag.snapshot.id),
          Value::Int64(tag.snapshot.schema_id),
          MillisTimestamp(tag.snapshot.time_millis),
          OptionalInt64(tag.snapshot.total_record_count),
          tag.create_time ? CreateTimeValue(*tag.create_time) : Value::Null(),
          tag.time_retained ? Value::String(JavaDurationText(*tag.time_retained)) : Value::Null(),
      }));
    }
    return batch;
  }

 private:
  std::shared_ptr<const FileStoreTable> table_;
  DataTypePtr type_;
};

}  // namespace

std::unique_ptr<SystemTable> NewTagsTable(std::shared_ptr<const FileStoreTable> table) {
  return std::make_unique<TagsTable>(std::move(table));
}

}  // namespace sluice
