// ColumnBatches and BatchReaders out as Arrow arrays and streams (arrow.h). Every node of an
// exported array holds the batch, so a consumer may release the children it moved out in any
// order; buffers Arrow lays out differently (bits, int128, one int64 per timestamp) are made
// for the node and owned by it.
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "sluice/api/arrow_internal.h"
#include "sluice/arrow.h"
#include "sluice/buffer.h"
#include "sluice/read_builder.h"
#include "sluice/value.h"

namespace sluice {
namespace {

// What a zero-length buffer points at: Arrow consumers may read one offset of it.
alignas(64) const uint8_t kEmptyBuffer[64] = {};

struct ArrayNode {
  std::shared_ptr<const ColumnBatch> batch;
  std::vector<Buffer> owned;
  const void* buffers[3] = {nullptr, nullptr, nullptr};
  std::vector<ArrowArray> children;
  std::vector<ArrowArray*> child_pointers;
};

void ReleaseArray(ArrowArray* array) {
  auto* node = static_cast<ArrayNode*>(array->private_data);
  for (ArrowArray* child : node->child_pointers) {
    if (child->release != nullptr) child->release(child);
  }
  delete node;
  array->release = nullptr;
}

const void* DataOf(const Buffer& buffer) {
  return buffer.empty() ? static_cast<const void*>(kEmptyBuffer)
                        : static_cast<const void*>(buffer.data());
}

// Arrow's bit-packed form of one byte per row (nonzero = set).
Buffer PackBits(const uint8_t* bytes, int64_t n) {
  Buffer bits;
  bits.ResizeZeroed(static_cast<size_t>((n + 7) / 8));
  uint8_t* out = bits.data();
  for (int64_t i = 0; i < n; ++i) {
    out[i >> 3] |= static_cast<uint8_t>((bytes[i] != 0 ? 1 : 0) << (i & 7));
  }
  return bits;
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// One int64 per row in the unit of `precision` (arrow.h).
Buffer TimestampValues(const ColumnVector& column) {
  int32_t precision = column.type()->precision();
  int64_t n = column.size();
  Buffer out;
  out.Resize(static_cast<size_t>(n) * sizeof(int64_t));
  const Timestamp* in = column.data<Timestamp>();
  int64_t* values = out.as<int64_t>();
  if (precision == 0) {
    for (int64_t i = 0; i < n; ++i) values[i] = FloorDiv(in[i].millisecond, 1000);
  } else if (precision <= 3) {
    for (int64_t i = 0; i < n; ++i) values[i] = in[i].millisecond;
  } else if (precision <= 6) {
    for (int64_t i = 0; i < n; ++i) {
      values[i] = in[i].millisecond * 1000 + in[i].nano_of_millisecond / 1000;
    }
  } else {
    for (int64_t i = 0; i < n; ++i) {
      values[i] = in[i].millisecond * 1000000 + in[i].nano_of_millisecond;
    }
  }
  return out;
}

class ArrayExporter {
 public:
  explicit ArrayExporter(std::shared_ptr<const ColumnBatch> batch) : batch_(std::move(batch)) {}

  Status ExportBatch(ArrowArray* out) {
    auto node = NewNode();
    node->children.resize(static_cast<size_t>(batch_->num_columns()));
    for (ArrowArray& c : node->children) c.release = nullptr;
    for (int i = 0; i < batch_->num_columns(); ++i) {
      Status st =
          ExportColumn(*batch_->column(i), batch_->schema()->fields()[i].name, &node->children[i]);
      if (!st.ok()) {
        ReleaseChildren(node.get());
        return st;
      }
    }
    Fill(std::move(node), batch_->num_rows(), 0, 1, out);
    return Status::OK();
  }

 private:
  std::unique_ptr<ArrayNode> NewNode() {
    auto node = std::make_unique<ArrayNode>();
    node->batch = batch_;
    return node;
  }

  static void ReleaseChildren(ArrayNode* node) {
    for (ArrowArray& c : node->children) {
      if (c.release != nullptr) c.release(&c);
    }
  }

  static void Fill(std::unique_ptr<ArrayNode> node, int64_t length, int64_t null_count,
                   int64_t n_buffers, ArrowArray* out) {
    for (ArrowArray& child : node->children) node->child_pointers.push_back(&child);
    out->length = length;
    out->null_count = null_count;
    out->offset = 0;
    out->n_buffers = n_buffers;
    out->n_children = static_cast<int64_t>(node->children.size());
    out->buffers = node->buffers;
    out->children = node->child_pointers.empty() ? nullptr : node->child_pointers.data();
    out->dictionary = nullptr;
    out->release = ReleaseArray;
    out->private_data = node.release();
  }

  // Exports the children of `node` (already sized), releasing them all on a failure.
  template <typename F>
  Status ExportChildren(ArrayNode* node, F&& export_child) {
    for (ArrowArray& c : node->children) c.release = nullptr;
    for (size_t i = 0; i < node->children.size(); ++i) {
      Status st = export_child(i, &node->children[i]);
      if (!st.ok()) {
        ReleaseChildren(node);
        return st;
      }
    }
    return Status::OK();
  }

  Status ExportColumn(const ColumnVector& column, const std::string& path, ArrowArray* out) {
    auto node = NewNode();
    int64_t n = column.size();
    int64_t null_count = 0;
    if (column.has_nulls()) {
      null_count = column.CountNulls();
      if (null_count > 0) {
        node->owned.push_back(PackBits(column.validity().data(), n));
        node->buffers[0] = node->owned.back().data();
      }
    }
    const DataType& type = *column.type();
    switch (column.kind()) {
      case PhysicalKind::kUInt8:
        node->owned.push_back(PackBits(column.values().data(), n));
        node->buffers[1] = DataOf(node->owned.back());
        break;
      case PhysicalKind::kInt64:
        if (type.root() == TypeRoot::kDecimal) {
          Buffer wide;
          wide.Resize(static_cast<size_t>(n) * sizeof(int128_t));
          const int64_t* in = column.data<int64_t>();
          int128_t* values = wide.as<int128_t>();
          for (int64_t i = 0; i < n; ++i) values[i] = in[i];
          node->owned.push_back(std::move(wide));
          node->buffers[1] = DataOf(node->owned.back());
        } else {
          node->buffers[1] = DataOf(column.values());
        }
        break;
      case PhysicalKind::kInt8:
      case PhysicalKind::kInt16:
      case PhysicalKind::kInt32:
      case PhysicalKind::kInt128:
      case PhysicalKind::kFloat:
      case PhysicalKind::kDouble:
        node->buffers[1] = DataOf(column.values());
        break;
      case PhysicalKind::kTimestamp:
        node->owned.push_back(TimestampValues(column));
        node->buffers[1] = DataOf(node->owned.back());
        break;
      case PhysicalKind::kBytes:
        if (type.root() == TypeRoot::kVariant) {
          return Status::InvalidArgument("column '" + path + "' is " + type.ToString() +
                                         ", which Sluice does not map to Arrow");
        }
        node->buffers[1] = DataOf(column.offsets());
        node->buffers[2] = DataOf(column.values());
        Fill(std::move(node), n, null_count, 3, out);
        return Status::OK();
      case PhysicalKind::kList:
        if (type.root() == TypeRoot::kVector)
          return ExportVector(column, path, std::move(node), null_count, out);
        node->buffers[1] = DataOf(column.offsets());
        node->children.resize(1);
        SLUICE_RETURN_NOT_OK(ExportChildren(node.get(), [&](size_t, ArrowArray* child) {
          return ExportColumn(*column.child(0), path + "[]", child);
        }));
        break;
      case PhysicalKind::kMap: {
        node->buffers[1] = DataOf(column.offsets());
        node->children.resize(1);
        SLUICE_RETURN_NOT_OK(ExportChildren(node.get(), [&](size_t, ArrowArray* child) {
          return ExportEntries(column, path, child);
        }));
        break;
      }
      case PhysicalKind::kStruct:
        node->children.resize(static_cast<size_t>(column.num_children()));
        SLUICE_RETURN_NOT_OK(ExportChildren(node.get(), [&](size_t i, ArrowArray* child) {
          return ExportColumn(*column.child(static_cast<int>(i)),
                              path + "." + type.fields()[i].name, child);
        }));
        Fill(std::move(node), n, null_count, 1, out);
        return Status::OK();
    }
    Fill(std::move(node), n, null_count, 2, out);
    return Status::OK();
  }

  // The struct<key, value> child of a map: one row per entry, never null.
  Status ExportEntries(const ColumnVector& column, const std::string& path, ArrowArray* out) {
    auto node = NewNode();
    node->children.resize(2);
    SLUICE_RETURN_NOT_OK(ExportChildren(node.get(), [&](size_t i, ArrowArray* child) {
      return ExportColumn(*column.child(static_cast<int>(i)), path + (i == 0 ? ".key" : ".value"),
                          child);
    }));
    Fill(std::move(node), column.child(0)->size(), 0, 1, out);
    return Status::OK();
  }

  // VECTOR(n) as a fixed-size list: the elements as they are when every row holds n of them
  // in order, else gathered with zeroed slots under the null rows (which hold none).
  Status ExportVector(const ColumnVector& column, const std::string& path,
                      std::unique_ptr<ArrayNode> node, int64_t null_count, ArrowArray* out) {
    const int64_t length = column.type()->length();
    const int64_t n = column.size();
    const int32_t* offsets = column.offset_data();
    bool regular = true;
    for (int64_t i = 0; i < n && regular; ++i) {
      regular = offsets[i + 1] - offsets[i] == length;
    }
    node->children.resize(1);
    const ColumnVector& elements = *column.child(0);
    if (regular && offsets[0] == 0) {
      SLUICE_RETURN_NOT_OK(ExportChildren(node.get(), [&](size_t, ArrowArray* child) {
        return ExportColumn(elements, path + "[]", child);
      }));
      Fill(std::move(node), n, null_count, 1, out);
      return Status::OK();
    }
    int width = FixedWidthOf(elements.kind());
    if (width == 0 || elements.kind() == PhysicalKind::kUInt8 || elements.has_nulls()) {
      return Status::InvalidArgument("column '" + path + "' is " + column.type()->ToString() +
                                     " with rows of other lengths than " + std::to_string(length) +
                                     ", which Arrow cannot hold");
    }
    Buffer gathered;
    gathered.ResizeZeroed(static_cast<size_t>(n * length * width));
    for (int64_t i = 0; i < n; ++i) {
      int64_t count = offsets[i + 1] - offsets[i];
      if (count == 0) continue;
      if (count != length) {
        return Status::InvalidArgument("row " + std::to_string(i) + " of column '" + path +
                                       "' holds " + std::to_string(count) + " elements, not " +
                                       std::to_string(length));
      }
      std::memcpy(gathered.data() + i * length * width,
                  elements.values().data() + static_cast<int64_t>(offsets[i]) * width,
                  static_cast<size_t>(length * width));
    }
    auto child = NewNode();
    child->owned.push_back(std::move(gathered));
    child->buffers[1] = DataOf(child->owned.back());
    node->children[0].release = nullptr;
    Fill(std::move(child), n * length, 0, 2, &node->children[0]);
    Fill(std::move(node), n, null_count, 1, out);
    return Status::OK();
  }

  std::shared_ptr<const ColumnBatch> batch_;
};

// --- Stream ---

struct StreamState {
  std::unique_ptr<BatchReader> reader;
  ArrowOptions options;
  std::string last_error;
};

StreamState* StateOf(ArrowArrayStream* stream) {
  return static_cast<StreamState*>(stream->private_data);
}

int FailStream(StreamState* state, const Status& status, int code) {
  state->last_error = status.ToString();
  return code;
}

int StreamGetSchema(ArrowArrayStream* stream, ArrowSchema* out) {
  StreamState* state = StateOf(stream);
  try {
    Status st = ExportArrowSchema(*state->reader->output_type(), out, state->options);
    return st.ok() ? 0 : FailStream(state, st, EINVAL);
  } catch (const std::bad_alloc&) {
    return FailStream(state, Status::Internal("out of memory making the Arrow schema"), ENOMEM);
  } catch (const std::exception& e) {
    return FailStream(state, Status::Internal(e.what()), EIO);
  }
}

int StreamGetNext(ArrowArrayStream* stream, ArrowArray* out) {
  StreamState* state = StateOf(stream);
  try {
    auto batch = std::make_shared<ColumnBatch>(state->reader->output_type());
    Result<bool> more = state->reader->Next(batch.get());
    if (!more.ok()) return FailStream(state, more.status(), EIO);
    if (!*more) {
      out->release = nullptr;
      return 0;
    }
    Status st = ArrayExporter(std::move(batch)).ExportBatch(out);
    return st.ok() ? 0 : FailStream(state, st, EINVAL);
  } catch (const std::bad_alloc&) {
    return FailStream(state, Status::Internal("out of memory reading the next batch"), ENOMEM);
  } catch (const std::exception& e) {
    return FailStream(state, Status::Internal(e.what()), EIO);
  }
}

const char* StreamGetLastError(ArrowArrayStream* stream) {
  StreamState* state = StateOf(stream);
  return state->last_error.empty() ? nullptr : state->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* stream) {
  delete StateOf(stream);
  stream->release = nullptr;
}

}  // namespace

Status ExportArrowArray(std::shared_ptr<const ColumnBatch> batch, ArrowArray* out) {
  return ArrayExporter(std::move(batch)).ExportBatch(out);
}

Status ExportArrowStream(std::unique_ptr<BatchReader> reader, ArrowArrayStream* out,
                         const ArrowOptions& options) {
  // Refuses a type without a mapping now rather than at the consumer's first call.
  ArrowSchema schema;
  SLUICE_RETURN_NOT_OK(ExportArrowSchema(*reader->output_type(), &schema, options));
  schema.release(&schema);
  auto state = std::make_unique<StreamState>();
  state->reader = std::move(reader);
  state->options = options;
  out->get_schema = StreamGetSchema;
  out->get_next = StreamGetNext;
  out->get_last_error = StreamGetLastError;
  out->release = StreamRelease;
  out->private_data = state.release();
  return Status::OK();
}

Status ReadArrowStream(const ReadBuilder& read, ArrowArrayStream* out,
                       const ArrowOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(TableScan scan, read.NewScan());
  SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan.Plan());
  SLUICE_ASSIGN_OR_RETURN(TableRead table_read, read.NewRead());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader,
                          table_read.CreateReader(std::move(plan.splits)));
  return ExportArrowStream(std::move(reader), out, options);
}

}  // namespace sluice
