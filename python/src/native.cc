// sluice._native: the Python binding of Sluice's public API (include/sluice/), nothing else.
// The Python package (python/sluice/) gives it pypaimon's names; this module only carries calls
// across, releases the GIL around the library's work, moves Arrow data through the C Data
// Interface's PyCapsule protocol (capsules named "arrow_schema" / "arrow_array_stream") and
// turns every error Status into the Python exception of its code (sluice/errors.py).
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sluice/arrow.h"
#include "sluice/catalog.h"
#include "sluice/commit_message.h"
#include "sluice/predicate_builder.h"
#include "sluice/procedures.h"
#include "sluice/read_builder.h"
#include "sluice/schema_change.h"
#include "sluice/split.h"
#include "sluice/stream_table_scan.h"
#include "sluice/system_tables.h"
#include "sluice/table.h"
#include "sluice/table_commit.h"
#include "sluice/table_write.h"
#include "sluice/value_parser.h"
#include "sluice/write_builder.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace sluice {
namespace {

constexpr const char* kSchemaCapsule = "arrow_schema";
constexpr const char* kStreamCapsule = "arrow_array_stream";
// Arrow readers take batches of this many rows, and at most kArrowBufferedBatches wait for the
// consumer: Python keeps whole columns (to_arrow, to_pandas), and a column of 2 MiB or more (an
// INT column from 512 Ki rows) is written into huge pages (sluice/buffer.h), where the columns
// of 4096-row batches fault every 4 KiB.
constexpr int64_t kArrowBatchRows = 524288;
constexpr int kArrowBufferedBatches = 4;

// The exception class of a status code, as sluice/errors.py names them.
const char* ExceptionName(StatusCode code) {
  switch (code) {
    case StatusCode::kInvalidArgument:
      return "InvalidArgumentError";
    case StatusCode::kNotFound:
      return "NotFoundError";
    case StatusCode::kAlreadyExists:
      return "AlreadyExistsError";
    case StatusCode::kCorruption:
      return "CorruptionError";
    case StatusCode::kIOError:
      return "SluiceIOError";
    case StatusCode::kNotSupported:
      return "NotSupportedError";
    case StatusCode::kConflict:
      return "ConflictError";
    case StatusCode::kOutOfRange:
      return "OutOfRangeError";
    case StatusCode::kOk:
    case StatusCode::kInternal:
      break;
  }
  return "SluiceError";
}

// Sets the Python error of `status` and unwinds to nanobind, which hands it to the caller.
[[noreturn]] void Raise(const Status& status) {
  nb::object type = nb::module_::import_("sluice.errors").attr(ExceptionName(status.code()));
  PyErr_SetString(type.ptr(), status.message().c_str());
  throw nb::python_error();
}

void Check(const Status& status) {
  if (!status.ok()) Raise(status);
}

template <typename T>
T Unwrap(Result<T> result) {
  if (!result.ok()) Raise(result.status());
  return std::move(result).value();
}

// Runs `work` (a library call) without the GIL: reads, writes and commits take long and run
// their own threads, and other Python threads should go on meanwhile.
template <typename F>
auto WithoutGil(F&& work) {
  nb::gil_scoped_release release;
  return work();
}

// PyCapsule destructors of the Arrow PyCapsule protocol: a consumer that took the struct over
// set its release to null; otherwise the data is still ours to release.
void DestroySchemaCapsule(PyObject* capsule) {
  auto* schema = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, kSchemaCapsule));
  if (schema == nullptr) return;
  if (schema->release != nullptr) schema->release(schema);
  delete schema;
}

void DestroyStreamCapsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, kStreamCapsule));
  if (stream == nullptr) return;
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

nb::object SchemaCapsule(const DataType& row_type) {
  auto schema = std::make_unique<ArrowSchema>();
  Check(ExportArrowSchema(row_type, schema.get()));
  PyObject* capsule = PyCapsule_New(schema.get(), kSchemaCapsule, DestroySchemaCapsule);
  if (capsule == nullptr) throw nb::python_error();
  schema.release();
  return nb::steal(capsule);
}

nb::object StreamCapsule(std::unique_ptr<BatchReader> reader) {
  auto stream = std::make_unique<ArrowArrayStream>();
  Check(ExportArrowStream(std::move(reader), stream.get()));
  PyObject* capsule = PyCapsule_New(stream.get(), kStreamCapsule, DestroyStreamCapsule);
  if (capsule == nullptr) throw nb::python_error();
  stream.release();
  return nb::steal(capsule);
}

template <typename T>
T* CapsulePointer(const nb::object& capsule, const char* name) {
  void* pointer = PyCapsule_GetPointer(capsule.ptr(), name);
  if (pointer == nullptr) throw nb::python_error();
  return static_cast<T*>(pointer);
}

// One batch (a system table) as a BatchReader, so that it leaves as a stream like every read.
class OneBatchReader : public BatchReader {
 public:
  explicit OneBatchReader(ColumnBatch batch) : type_(batch.schema()), batch_(std::move(batch)) {}

  // Its own copy of the type: the stream asks for it after the batch has been handed on.
  const DataTypePtr& output_type() const override { return type_; }

  Result<bool> Next(ColumnBatch* batch) override {
    if (done_ || batch_.num_rows() == 0) return false;
    done_ = true;
    *batch = std::move(batch_);
    return true;
  }

 private:
  DataTypePtr type_;
  ColumnBatch batch_;
  bool done_ = false;
};

nb::object SystemTableStream(Result<ColumnBatch> rows) {
  return StreamCapsule(std::make_unique<OneBatchReader>(Unwrap(std::move(rows))));
}

std::string ScanModeName(ScanMode mode) {
  switch (mode) {
    case ScanMode::kBatch:
      return "batch";
    case ScanMode::kStreamFull:
      return "stream-full";
    case ScanMode::kDelta:
      return "delta";
  }
  return "batch";
}

ScanMode ParseScanMode(const std::string& name) {
  for (ScanMode mode : {ScanMode::kBatch, ScanMode::kStreamFull, ScanMode::kDelta}) {
    if (ScanModeName(mode) == name) return mode;
  }
  Raise(Status::InvalidArgument("unknown read mode '" + name + "' (batch, stream-full, delta)"));
}

nb::list SplitList(std::vector<Split> splits) {
  nb::list out;
  for (Split& split : splits) out.append(nb::cast(std::move(split)));
  return out;
}

std::vector<Split> SplitsOf(const nb::list& splits) {
  std::vector<Split> out;
  out.reserve(splits.size());
  for (nb::handle split : splits) out.push_back(nb::cast<Split>(split));
  return out;
}

// A filter leaf: literals arrive as the text of the column's type (value_parser.h), which the
// Python side writes from its values, so that one parser decides what a literal means.
class PredicateFactory {
 public:
  PredicateFactory(std::string table, DataTypePtr row_type)
      : table_(std::move(table)), row_type_(row_type), builder_(std::move(row_type)) {}

  PredicatePtr Leaf(const std::string& op, const std::string& field,
                    const std::vector<std::optional<std::string>>& literals) const {
    int index = row_type_->FieldIndex(field);
    if (index < 0) {
      std::string columns;
      for (const DataField& f : row_type_->fields()) {
        columns += (columns.empty() ? "" : ", ") + f.name;
      }
      Raise(Status::InvalidArgument("table " + table_ + " has no column '" + field +
                                    "' to filter on (columns: " + columns + ")"));
    }
    const DataType& type = *row_type_->fields()[index].type;
    std::vector<Value> values;
    for (const std::optional<std::string>& text : literals) {
      if (!text) {
        values.push_back(Value::Null());
        continue;
      }
      Result<Value> value = ParseValueText(*text, type);
      if (!value.ok()) {
        Raise(value.status().WithContext("filter on " + table_ + "." + field));
      }
      values.push_back(std::move(value).value());
    }
    auto one = [&]() -> const Value& {
      if (values.size() != 1) {
        Raise(Status::InvalidArgument(op + " on " + field + " takes one literal"));
      }
      return values[0];
    };
    if (op == "equal") return Unwrap(builder_.Equal(field, one()));
    if (op == "not_equal") return Unwrap(builder_.NotEqual(field, one()));
    if (op == "less_than") return Unwrap(builder_.LessThan(field, one()));
    if (op == "less_or_equal") return Unwrap(builder_.LessOrEqual(field, one()));
    if (op == "greater_than") return Unwrap(builder_.GreaterThan(field, one()));
    if (op == "greater_or_equal") return Unwrap(builder_.GreaterOrEqual(field, one()));
    if (op == "is_null") return Unwrap(builder_.IsNull(field));
    if (op == "is_not_null") return Unwrap(builder_.IsNotNull(field));
    if (op == "is_in") return Unwrap(builder_.In(field, values));
    if (op == "is_not_in") return Unwrap(builder_.NotIn(field, values));
    if (op == "startswith") return Unwrap(builder_.StartsWith(field, *literals.at(0)));
    if (op == "like") return Unwrap(builder_.Like(field, *literals.at(0)));
    Raise(Status::InvalidArgument("unknown predicate '" + op + "'"));
  }

 private:
  std::string table_;
  DataTypePtr row_type_;
  PredicateBuilder builder_;
};

// A predicate handle for Python (PredicatePtr is a shared_ptr to an opaque type).
struct PyPredicate {
  PredicatePtr predicate;
};

std::vector<PredicatePtr> PredicatesOf(const std::vector<PyPredicate>& children) {
  std::vector<PredicatePtr> out;
  for (const PyPredicate& child : children) out.push_back(child.predicate);
  return out;
}

// One ALTER TABLE change as the Python side sends it: (kind, field names, key, value, type,
// comment, nullable, keep nullability); `type` is the capsule of an Arrow schema of one field,
// whose Paimon type the change takes.
using PyChange = std::tuple<std::string, std::vector<std::string>, std::string, std::string,
                            std::optional<nb::object>, std::optional<std::string>, bool, bool>;

SchemaChange ChangeOf(const PyChange& change) {
  const auto& [kind, names, key, value, type_capsule, comment, nullable, keep_nullability] = change;
  DataTypePtr type;
  if (type_capsule) {
    DataTypePtr row =
        Unwrap(ImportArrowSchema(*CapsulePointer<ArrowSchema>(*type_capsule, kSchemaCapsule)));
    type = row->fields().at(0).type;
  }
  if (kind == "set_option") return SchemaChange::SetOption(key, value);
  if (kind == "remove_option") return SchemaChange::RemoveOption(key);
  if (kind == "update_comment") return SchemaChange::UpdateComment(comment);
  if (kind == "add_column") return SchemaChange::AddColumn(names, type, comment);
  if (kind == "rename_column") return SchemaChange::RenameColumn(names, value);
  if (kind == "drop_column") return SchemaChange::DropColumn(names);
  if (kind == "update_column_type") {
    return SchemaChange::UpdateColumnType(names, type, keep_nullability);
  }
  if (kind == "update_column_nullability") {
    return SchemaChange::UpdateColumnNullability(names, nullable);
  }
  if (kind == "update_column_comment") return SchemaChange::UpdateColumnComment(names, comment);
  Raise(Status::InvalidArgument("unknown schema change '" + kind + "'"));
}

nb::list SnapshotList(const std::vector<SnapshotInfo>& snapshots) {
  nb::list out;
  for (const SnapshotInfo& s : snapshots) {
    nb::dict d;
    d["id"] = s.id;
    d["schema_id"] = s.schema_id;
    d["commit_kind"] = s.commit_kind;
    d["commit_user"] = s.commit_user;
    d["commit_identifier"] = s.commit_identifier;
    d["time_millis"] = s.time_millis;
    d["total_record_count"] = s.total_record_count;
    d["delta_record_count"] = s.delta_record_count;
    out.append(d);
  }
  return out;
}

}  // namespace
}  // namespace sluice

NB_MODULE(_native, m) {
  using namespace sluice;
  m.doc() = "Sluice's public C++ API, bound for the sluice package (use sluice, not this).";

  nb::class_<Catalog>(m, "Catalog")
      .def("__init__",
           [](Catalog* self, std::string warehouse) {
             new (self) Catalog(Catalog::Filesystem(std::move(warehouse)));
           })
      .def_static("open",
                  [](const std::map<std::string, std::string>& options) {
                    return Unwrap(WithoutGil([&] { return Catalog::Open(options); }));
                  })
      .def_prop_ro("warehouse", &Catalog::warehouse)
      .def("list_databases",
           [](const Catalog& c) { return Unwrap(WithoutGil([&] { return c.ListDatabases(); })); })
      .def("list_tables",
           [](const Catalog& c, const std::string& db) {
             return Unwrap(WithoutGil([&] { return c.ListTables(db); }));
           })
      .def("create_database",
           [](const Catalog& c, const std::string& db, bool ignore_if_exists) {
             Check(WithoutGil([&] { return c.CreateDatabase(db, ignore_if_exists); }));
           })
      .def("drop_database",
           [](const Catalog& c, const std::string& db, bool ignore_if_not_exists, bool cascade) {
             Check(WithoutGil([&] { return c.DropDatabase(db, ignore_if_not_exists, cascade); }));
           })
      .def("create_table",
           [](const Catalog& c, const std::string& identifier, const nb::object& schema_capsule,
              std::vector<std::string> partition_keys, std::vector<std::string> primary_keys,
              std::vector<std::pair<std::string, std::string>> options,
              std::optional<std::string> comment, bool ignore_if_exists) {
             DataTypePtr row_type = Unwrap(
                 ImportArrowSchema(*CapsulePointer<ArrowSchema>(schema_capsule, kSchemaCapsule)));
             NewTableSpec spec;
             spec.columns = row_type->fields();
             spec.partition_keys = std::move(partition_keys);
             spec.primary_keys = std::move(primary_keys);
             spec.options = std::move(options);
             spec.comment = std::move(comment);
             Check(WithoutGil([&] { return c.CreateTable(identifier, spec, ignore_if_exists); }));
           })
      .def("alter_table",
           [](const Catalog& c, const std::string& identifier,
              const std::vector<PyChange>& py_changes) {
             std::vector<SchemaChange> changes;
             for (const PyChange& change : py_changes) changes.push_back(ChangeOf(change));
             return Unwrap(WithoutGil([&] { return c.AlterTable(identifier, changes); }));
           })
      .def("drop_table",
           [](const Catalog& c, const std::string& identifier, bool ignore_if_not_exists) {
             Check(WithoutGil([&] { return c.DropTable(identifier, ignore_if_not_exists); }));
           })
      .def("rename_table",
           [](const Catalog& c, const std::string& from, const std::string& to,
              bool ignore_if_not_exists) {
             Check(WithoutGil([&] { return c.RenameTable(from, to, ignore_if_not_exists); }));
           })
      .def("get_table",
           [](const Catalog& c, const std::string& identifier) {
             return Unwrap(WithoutGil([&] { return c.GetTable(identifier); }));
           })
      .def("read_system_table",
           [](const Catalog& c, const std::string& identifier) {
             return SystemTableStream(WithoutGil([&] { return ReadSystemTable(c, identifier); }));
           })
      .def("call_procedure", [](const Catalog& c, const std::string& name,
                                std::vector<std::pair<std::string, std::string>> args) {
        return Unwrap(WithoutGil([&] { return CallProcedure(c, name, args); }));
      });

  nb::class_<Table>(m, "Table")
      .def_prop_ro("name", &Table::name)
      .def_prop_ro("path", &Table::path)
      .def_prop_ro("branch", &Table::branch)
      .def_prop_ro("schema_id", &Table::schema_id)
      .def_prop_ro("partition_keys", &Table::partition_keys)
      .def_prop_ro("primary_keys", &Table::primary_keys)
      .def_prop_ro("options", &Table::options)
      .def_prop_ro("comment", &Table::comment)
      .def("arrow_schema", [](const Table& t) { return SchemaCapsule(*t.row_type()); })
      .def("snapshots",
           [](const Table& t) {
             return SnapshotList(Unwrap(WithoutGil([&] { return t.Snapshots(); })));
           })
      .def("predicate_factory",
           [](const Table& t) { return PredicateFactory(t.name(), t.row_type()); });

  nb::class_<PyPredicate>(m, "Predicate")
      .def("__str__", [](const PyPredicate& p) { return PredicateBuilder::ToString(p.predicate); })
      .def_static("and_",
                  [](const std::vector<PyPredicate>& children) {
                    return PyPredicate{PredicateBuilder::And(PredicatesOf(children))};
                  })
      .def_static("or_",
                  [](const std::vector<PyPredicate>& children) {
                    return PyPredicate{PredicateBuilder::Or(PredicatesOf(children))};
                  })
      .def_static("not_", [](const PyPredicate& child) {
        return PyPredicate{PredicateBuilder::Not(child.predicate)};
      });

  nb::class_<PredicateFactory>(m, "PredicateFactory")
      .def("leaf", [](const PredicateFactory& f, const std::string& op, const std::string& field,
                      const std::vector<std::optional<std::string>>& literals) {
        return PyPredicate{f.Leaf(op, field, literals)};
      });

  nb::class_<Split>(m, "Split")
      .def_prop_ro("snapshot_id", &Split::snapshot_id)
      .def_prop_ro("bucket", &Split::bucket)
      .def_prop_ro("file_count", &Split::file_count)
      .def_prop_ro("row_count", &Split::row_count)
      .def("serialize",
           [](const Split& s) {
             std::string bytes = Unwrap(s.Serialize());
             return nb::bytes(bytes.data(), bytes.size());
           })
      .def_static("deserialize", [](const nb::bytes& b) {
        return Unwrap(Split::Deserialize(std::string_view(b.c_str(), b.size())));
      });

  nb::class_<ReadBuilder>(m, "ReadBuilder")
      .def("__init__", [](ReadBuilder* self, const Table& t) { new (self) ReadBuilder(t); })
      .def("with_projection",
           [](ReadBuilder& b, std::vector<std::string> columns) {
             b.WithProjection(std::move(columns));
           })
      .def("with_filter", [](ReadBuilder& b, const PyPredicate& p) { b.WithFilter(p.predicate); })
      .def("with_where", [](ReadBuilder& b, std::string where) { b.WithWhere(std::move(where)); })
      .def("with_limit", [](ReadBuilder& b, int64_t rows) { b.WithLimit(rows); })
      .def("with_option", [](ReadBuilder& b, std::string key,
                             std::string value) { b.WithOption(std::move(key), std::move(value)); })
      .def("with_mode",
           [](ReadBuilder& b, const std::string& mode) { b.WithMode(ParseScanMode(mode)); })
      .def("with_snapshot", [](ReadBuilder& b, int64_t id) { b.WithSnapshot(id); })
      .def("with_tag", [](ReadBuilder& b, std::string tag) { b.WithTag(std::move(tag)); })
      .def("with_ordered", [](ReadBuilder& b, bool ordered) { b.WithOrdered(ordered); })
      .def("with_threads", [](ReadBuilder& b, int threads) { b.WithThreads(threads); })
      .def("with_shard",
           [](ReadBuilder& b, int32_t index, int32_t count) { b.WithShard(index, count); })
      .def("plan",
           [](const ReadBuilder& b) {
             TableScanPlan plan = Unwrap(WithoutGil([&]() -> Result<TableScanPlan> {
               SLUICE_ASSIGN_OR_RETURN(TableScan scan, b.NewScan());
               return scan.Plan();
             }));
             return nb::make_tuple(plan.snapshot_id, SplitList(std::move(plan.splits)));
           })
      .def("read_schema",
           [](const ReadBuilder& b) {
             TableRead read = Unwrap(WithoutGil([&] { return b.NewRead(); }));
             return SchemaCapsule(*read.output_type());
           })
      .def("read",
           [](const ReadBuilder& b, const nb::list& splits) {
             std::vector<Split> to_read = SplitsOf(splits);
             ReadBuilder arrow = b;
             arrow.WithBatchRows(kArrowBatchRows).WithMaxBufferedBatches(kArrowBufferedBatches);
             std::unique_ptr<BatchReader> reader =
                 Unwrap(WithoutGil([&]() -> Result<std::unique_ptr<BatchReader>> {
                   SLUICE_ASSIGN_OR_RETURN(TableRead read, arrow.NewRead());
                   return read.CreateReader(std::move(to_read));
                 }));
             return StreamCapsule(std::move(reader));
           })
      .def("stream_scan", [](const ReadBuilder& b) {
        return Unwrap(WithoutGil([&] { return b.NewStreamScan(); }));
      });

  nb::class_<StreamTableScan>(m, "StreamTableScan")
      .def("plan",
           [](StreamTableScan& s) {
             StreamScanPlan plan = Unwrap(WithoutGil([&] { return s.Plan(); }));
             return nb::make_tuple(plan.snapshot_id, SplitList(std::move(plan.splits)),
                                   plan.end_of_scan);
           })
      .def("wait_for_next_snapshot",
           [](StreamTableScan& s, int64_t timeout_ms) {
             return Unwrap(WithoutGil(
                 [&] { return s.WaitForNextSnapshot(std::chrono::milliseconds(timeout_ms)); }));
           })
      .def("checkpoint", &StreamTableScan::Checkpoint)
      .def("restore", &StreamTableScan::Restore)
      .def("notify_checkpoint_complete", [](const StreamTableScan& s, std::optional<int64_t> next) {
        Check(WithoutGil([&] { return s.NotifyCheckpointComplete(next); }));
      });

  nb::class_<CommitMessage>(m, "CommitMessage")
      .def_prop_ro("bucket", &CommitMessage::bucket)
      .def_prop_ro("new_file_count", &CommitMessage::new_file_count)
      .def("is_empty", &CommitMessage::empty)
      .def("serialize",
           [](const CommitMessage& c) {
             std::string bytes = Unwrap(c.Serialize());
             return nb::bytes(bytes.data(), bytes.size());
           })
      .def_static("deserialize", [](const nb::bytes& b) {
        return Unwrap(CommitMessage::Deserialize(std::string_view(b.c_str(), b.size())));
      });

  nb::class_<TableWrite>(m, "TableWrite")
      .def("write_stream",
           [](TableWrite& w, const nb::object& capsule) {
             // The C stream interface's move: the struct is ours now, the capsule's is released.
             ArrowArrayStream* source = CapsulePointer<ArrowArrayStream>(capsule, kStreamCapsule);
             ArrowArrayStream stream = *source;
             source->release = nullptr;
             Check(WithoutGil([&] { return w.Write(&stream); }));
           })
      .def("compact",
           [](TableWrite& w, bool full) { Check(WithoutGil([&] { return w.Compact({}, full); })); })
      .def("prepare_commit",
           [](TableWrite& w, int64_t commit_identifier) {
             return Unwrap(WithoutGil([&] { return w.PrepareCommit(commit_identifier); }));
           })
      .def("close", [](TableWrite& w) { Check(WithoutGil([&] { return w.Close(); })); })
      .def_prop_ro("rows_written", &TableWrite::rows_written);

  nb::class_<TableCommit>(m, "TableCommit")
      .def_prop_ro("commit_user", &TableCommit::commit_user)
      .def("commit", [](TableCommit& c, std::vector<CommitMessage> messages,
                        int64_t commit_identifier) {
        CommitResult result =
            Unwrap(WithoutGil([&] { return c.Commit(std::move(messages), commit_identifier); }));
        return result.snapshot_ids;
      });

  nb::class_<WriteBuilder>(m, "WriteBuilder")
      .def("__init__", [](WriteBuilder* self, const Table& t) { new (self) WriteBuilder(t); })
      .def_prop_ro("commit_user", &WriteBuilder::commit_user)
      .def("with_commit_user",
           [](WriteBuilder& b, std::string user) { b.WithCommitUser(std::move(user)); })
      .def("with_overwrite",
           [](WriteBuilder& b, PartitionSpec spec) { b.WithOverwrite(std::move(spec)); })
      .def("with_option", [](WriteBuilder& b, std::string key,
                             std::string value) { b.WithOption(std::move(key), std::move(value)); })
      .def("new_write",
           [](const WriteBuilder& b) { return Unwrap(WithoutGil([&] { return b.NewWrite(); })); })
      .def("new_commit",
           [](const WriteBuilder& b) { return Unwrap(WithoutGil([&] { return b.NewCommit(); })); });

  m.attr("BATCH_COMMIT_IDENTIFIER") = TableWrite::kBatchCommitIdentifier;
}
