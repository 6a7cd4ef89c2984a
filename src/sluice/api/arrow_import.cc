// Arrow arrays into ColumnVectors (arrow.h: ImportArrowArray): each Arrow column is checked
// against the type it lands in, then copied in bulk (bits to bytes, units to Paimon's forms).
// Null var-length and nested rows get empty ranges, as ColumnVector wants, whatever range
// the producer left under them.
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/api/arrow_internal.h"
#include "sluice/arrow.h"
#include "sluice/base/utf8.h"
#include "sluice/value.h"

namespace sluice {
namespace arrow_internal {
namespace {

bool BitAt(const uint8_t* bits, int64_t i) { return ((bits[i >> 3] >> (i & 7)) & 1) != 0; }

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// The rows [base, base + length) of one Arrow array, base counted from its buffers' start.
struct Source {
  const ArrowSchema& schema;
  const ArrowArray& array;
  int64_t base;
  int64_t length;
  const uint8_t* validity;  // null when no row is null

  bool valid(int64_t i) const { return validity == nullptr || BitAt(validity, base + i); }
  template <typename T>
  const T* buffer(int i) const {
    return static_cast<const T*>(array.buffers[i]);
  }
};

Status Mismatch(const ColumnVector& out, const std::string& path, std::string_view format) {
  Result<std::string> expected = FormatOf(*out.type(), "<zone>", path);
  return Status::InvalidArgument("column '" + path + "' is " + out.type()->ToString() +
                                 " (Arrow '" + (expected.ok() ? *expected : std::string("?")) +
                                 "'), the Arrow data is '" + std::string(format) + "'");
}

Status BadBuffers(const std::string& path, const std::string& what) {
  return Status::InvalidArgument("column '" + path + "': bad Arrow array: " + what);
}

// The unit divisor of an Arrow time or timestamp unit letter against seconds, or 0.
int64_t UnitsPerSecond(char unit) {
  switch (unit) {
    case 's':
      return 1;
    case 'm':
      return 1000;
    case 'u':
      return 1000000;
    case 'n':
      return 1000000000;
    default:
      return 0;
  }
}

// Checks `format` against the type of `out`; for times and timestamps returns the unit letter.
Result<char> CheckFormat(std::string_view format, const ColumnVector& out,
                         const std::string& path) {
  const DataType& type = *out.type();
  switch (type.root()) {
    case TypeRoot::kTime:
      if (format.size() == 3 && format.starts_with("tt") && UnitsPerSecond(format[2]) != 0) {
        return format[2];
      }
      return Mismatch(out, path, format);
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      bool zoned = type.root() == TypeRoot::kTimestampLtz;
      if (format.size() >= 4 && format.starts_with("ts") && format[3] == ':' &&
          UnitsPerSecond(format[2]) != 0 && (format.size() > 4) == zoned) {
        return format[2];
      }
      return Mismatch(out, path, format);
    }
    case TypeRoot::kDecimal: {
      int precision = 0;
      int scale = 0;
      int bits = 128;
      std::string text(format);
      int n = std::sscanf(text.c_str(), "d:%d,%d,%d", &precision, &scale, &bits);
      if (format.starts_with("d:") && n >= 2 && bits == 128 && precision == type.precision() &&
          scale == type.scale()) {
        return 'd';
      }
      return Mismatch(out, path, format);
    }
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
      if (format == "z") return 'z';
      if (format.starts_with("w:")) return 'w';
      return Mismatch(out, path, format);
    default: {
      SLUICE_ASSIGN_OR_RETURN(std::string expected, FormatOf(type, "", path));
      if (format != expected) return Mismatch(out, path, format);
      return ' ';
    }
  }
}

// Grows `out` by src.length rows and sets their validity.
void AppendRows(const Source& src, ColumnVector* out) {
  int64_t old = out->size();
  out->Resize(old + src.length);
  if (src.validity == nullptr) return;
  uint8_t* valid = out->MutableValidity() + old;
  for (int64_t i = 0; i < src.length; ++i) valid[i] = src.valid(i) ? 1 : 0;
}

Status CheckBuffers(const Source& src, int64_t n_buffers, int64_t n_children,
                    const std::string& path) {
  if (src.array.n_buffers != n_buffers) {
    return BadBuffers(
        path, std::to_string(src.array.n_buffers) + " buffers, not " + std::to_string(n_buffers));
  }
  if (src.array.n_children != n_children || src.schema.n_children != n_children) {
    return BadBuffers(path, std::to_string(src.array.n_children) + " children, not " +
                                std::to_string(n_children));
  }
  if (src.length > 0) {
    for (int64_t i = 1; i < n_buffers; ++i) {
      if (src.array.buffers[i] == nullptr) {
        return BadBuffers(path, "buffer " + std::to_string(i) + " is null");
      }
    }
  }
  return Status::OK();
}

void ImportFixed(const Source& src, char unit, ColumnVector* out) {
  int64_t old = out->size();
  AppendRows(src, out);
  int64_t n = src.length;
  const DataType& type = *out->type();
  switch (out->kind()) {
    case PhysicalKind::kUInt8: {
      const uint8_t* bits = src.buffer<uint8_t>(1);
      uint8_t* values = out->data<uint8_t>() + old;
      for (int64_t i = 0; i < n; ++i) values[i] = BitAt(bits, src.base + i) ? 1 : 0;
      return;
    }
    case PhysicalKind::kInt64:
      if (type.root() == TypeRoot::kDecimal) {
        const int128_t* in = src.buffer<int128_t>(1) + src.base;
        int64_t* values = out->data<int64_t>() + old;
        for (int64_t i = 0; i < n; ++i) values[i] = static_cast<int64_t>(in[i]);
        return;
      }
      break;
    case PhysicalKind::kInt32:
      if (type.root() == TypeRoot::kTime && unit != 'm') {
        int32_t* values = out->data<int32_t>() + old;
        if (unit == 's') {
          const int32_t* in = src.buffer<int32_t>(1) + src.base;
          for (int64_t i = 0; i < n; ++i) values[i] = in[i] * 1000;
        } else {
          const int64_t* in = src.buffer<int64_t>(1) + src.base;
          int64_t per_milli = UnitsPerSecond(unit) / 1000;
          for (int64_t i = 0; i < n; ++i) {
            values[i] = static_cast<int32_t>(FloorDiv(in[i], per_milli));
          }
        }
        return;
      }
      break;
    case PhysicalKind::kTimestamp: {
      const int64_t* in = src.buffer<int64_t>(1) + src.base;
      Timestamp* values = out->data<Timestamp>() + old;
      int64_t per_second = UnitsPerSecond(unit);
      for (int64_t i = 0; i < n; ++i) {
        if (per_second == 1) {
          values[i] = Timestamp{in[i] * 1000, 0};
        } else if (per_second == 1000) {
          values[i] = Timestamp{in[i], 0};
        } else if (per_second == 1000000) {
          values[i] = Timestamp::FromEpochMicros(in[i]);
        } else {
          values[i] = Timestamp::FromEpochNanos(in[i]);
        }
      }
      return;
    }
    default:
      break;
  }
  int width = FixedWidthOf(out->kind());
  std::memcpy(out->values().data() + old * width, src.buffer<uint8_t>(1) + src.base * width,
              static_cast<size_t>(n * width));
}

// Element ranges of a list-like source: row i -> [begin, end) in the child's logical rows.
template <typename RangeOf, typename ImportRun>
Status ImportRanges(const Source& src, ColumnVector* out, RangeOf range_of, ImportRun import_run,
                    int64_t child_length, const std::string& path) {
  int64_t old = out->size();
  AppendRows(src, out);
  int32_t* offsets = out->offset_data() + old;
  int64_t run_begin = 0;
  int64_t run_end = 0;
  for (int64_t i = 0; i < src.length; ++i) {
    int64_t count = 0;
    if (src.valid(i)) {
      auto [begin, end] = range_of(src.base + i);
      if (begin < 0 || end < begin || end > child_length) {
        return BadBuffers(path, "row " + std::to_string(i) + " has the range [" +
                                    std::to_string(begin) + ", " + std::to_string(end) + ") of " +
                                    std::to_string(child_length) + " values");
      }
      count = end - begin;
      if (count > 0 && begin != run_end) {
        if (run_end > run_begin) SLUICE_RETURN_NOT_OK(import_run(run_begin, run_end - run_begin));
        run_begin = begin;
      }
      if (count > 0) run_end = end;
    }
    int64_t next = static_cast<int64_t>(offsets[i]) + count;
    if (next > INT32_MAX) return BadBuffers(path, "more than 2^31 values in one batch");
    offsets[i + 1] = static_cast<int32_t>(next);
  }
  if (run_end > run_begin) SLUICE_RETURN_NOT_OK(import_run(run_begin, run_end - run_begin));
  return Status::OK();
}

Status ImportBytes(const Source& src, char kind, ColumnVector* out, const std::string& path) {
  const uint8_t* data = src.buffer<uint8_t>(kind == 'w' ? 1 : 2);
  int64_t width = 0;
  int64_t data_length = 0;
  const int32_t* src_offsets = nullptr;
  if (kind == 'w') {
    std::string_view digits(src.schema.format + 2);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), width);
    if (ec != std::errc() || end != digits.data() + digits.size() || width < 1) {
      return BadBuffers(path,
                        "bad fixed-size binary format '" + std::string(src.schema.format) + "'");
    }
    data_length = (src.array.offset + src.array.length) * width;
  } else {
    src_offsets = src.buffer<int32_t>(1);
    data_length = src.length > 0 ? src_offsets[src.array.offset + src.array.length] : 0;
  }
  auto range_of = [&](int64_t row) -> std::pair<int64_t, int64_t> {
    if (kind == 'w') return {row * width, (row + 1) * width};
    return {src_offsets[row], src_offsets[row + 1]};
  };
  Buffer& values = out->values();
  auto import_run = [&](int64_t begin, int64_t count) {
    values.Append(data + begin, static_cast<size_t>(count));
    return Status::OK();
  };
  return ImportRanges(src, out, range_of, import_run, data_length, path);
}

}  // namespace

Status ImportColumn(const ArrowSchema& schema, const ArrowArray& array, int64_t offset,
                    int64_t length, ColumnVector* out, const std::string& path) {
  if (schema.format == nullptr) return BadBuffers(path, "no format");
  if (schema.dictionary != nullptr || array.dictionary != nullptr) {
    return Status::InvalidArgument("column '" + path +
                                   "' is dictionary-encoded, which Sluice does not import");
  }
  std::string_view format(schema.format);
  SLUICE_ASSIGN_OR_RETURN(char unit, CheckFormat(format, *out, path));
  if (array.offset < 0 || array.length < 0 || offset < 0 || length < 0 ||
      offset + length > array.length) {
    return BadBuffers(path, "rows [" + std::to_string(offset) + ", " +
                                std::to_string(offset + length) + ") of an array of " +
                                std::to_string(array.length) + " at offset " +
                                std::to_string(array.offset));
  }
  if (array.n_buffers < 1 || array.buffers == nullptr) return BadBuffers(path, "no buffers");
  const uint8_t* validity = array.null_count != 0 && array.buffers[0] != nullptr
                                ? static_cast<const uint8_t*>(array.buffers[0])
                                : nullptr;
  Source src{schema, array, array.offset + offset, length, validity};
  switch (out->kind()) {
    case PhysicalKind::kBytes: {
      SLUICE_RETURN_NOT_OK(CheckBuffers(src, unit == 'w' ? 2 : 3, 0, path));
      const int64_t first = out->size();
      SLUICE_RETURN_NOT_OK(ImportBytes(src, unit, out, path));
      if (!out->type()->IsString()) return Status::OK();
      // Arrow's utf8 promises UTF-8 but nothing checks it, and a Paimon string must be UTF-8.
      const int64_t bad = FindInvalidUtf8Value(reinterpret_cast<const char*>(out->values().data()),
                                               out->offset_data() + first, length);
      if (bad < 0) return Status::OK();
      return Status::InvalidArgument("column '" + path + "': row " + std::to_string(bad) +
                                     " is not valid UTF-8");
    }
    case PhysicalKind::kList: {
      bool fixed = out->type()->root() == TypeRoot::kVector;
      SLUICE_RETURN_NOT_OK(CheckBuffers(src, fixed ? 1 : 2, 1, path));
      const ArrowSchema& child_schema = *schema.children[0];
      const ArrowArray& child = *array.children[0];
      int64_t width = fixed ? out->type()->length() : 0;
      const int32_t* offsets = fixed ? nullptr : src.buffer<int32_t>(1);
      auto range_of = [&](int64_t row) -> std::pair<int64_t, int64_t> {
        if (fixed) return {row * width, (row + 1) * width};
        return {offsets[row], offsets[row + 1]};
      };
      auto import_run = [&](int64_t begin, int64_t count) {
        return ImportColumn(child_schema, child, begin, count, out->child(0), path + "[]");
      };
      return ImportRanges(src, out, range_of, import_run, child.length, path);
    }
    case PhysicalKind::kMap: {
      SLUICE_RETURN_NOT_OK(CheckBuffers(src, 2, 1, path));
      const ArrowSchema& entries_schema = *schema.children[0];
      const ArrowArray& entries = *array.children[0];
      if (entries_schema.format == nullptr || std::string_view(entries_schema.format) != "+s" ||
          entries_schema.n_children != 2 || entries.n_children != 2) {
        return BadBuffers(path, "map entries are not a struct of key and value");
      }
      const int32_t* offsets = src.buffer<int32_t>(1);
      auto range_of = [&](int64_t row) -> std::pair<int64_t, int64_t> {
        return {offsets[row], offsets[row + 1]};
      };
      auto import_run = [&](int64_t begin, int64_t count) {
        SLUICE_RETURN_NOT_OK(ImportColumn(*entries_schema.children[0], *entries.children[0],
                                          entries.offset + begin, count, out->child(0),
                                          path + ".key"));
        return ImportColumn(*entries_schema.children[1], *entries.children[1],
                            entries.offset + begin, count, out->child(1), path + ".value");
      };
      return ImportRanges(src, out, range_of, import_run, entries.length, path);
    }
    case PhysicalKind::kStruct: {
      SLUICE_RETURN_NOT_OK(CheckBuffers(src, 1, out->num_children(), path));
      const std::vector<DataField>& fields = out->type()->fields();
      for (int i = 0; i < out->num_children(); ++i) {
        SLUICE_RETURN_NOT_OK(ImportColumn(*schema.children[i], *array.children[i],
                                          array.offset + offset, length, out->child(i),
                                          path + "." + fields[i].name));
      }
      AppendRows(src, out);
      return Status::OK();
    }
    default:
      SLUICE_RETURN_NOT_OK(CheckBuffers(src, 2, 0, path));
      ImportFixed(src, unit, out);
      return Status::OK();
  }
}

}  // namespace arrow_internal

Result<std::unique_ptr<ColumnBatch>> ImportArrowArray(ArrowArray* array, const ArrowSchema& schema,
                                                      const DataTypePtr& row_type) {
  arrow_internal::ArrayReleaser releaser(array);
  if (array->release == nullptr) return Status::InvalidArgument("the Arrow array is released");
  if (schema.format == nullptr || std::string_view(schema.format) != "+s") {
    return Status::InvalidArgument("an Arrow array of rows is a struct ('+s'), not '" +
                                   std::string(schema.format != nullptr ? schema.format : "") +
                                   "'");
  }
  const std::vector<DataField>& fields = row_type->fields();
  if (schema.n_children != static_cast<int64_t>(fields.size()) ||
      array->n_children != schema.n_children) {
    return Status::InvalidArgument("the Arrow array has " + std::to_string(array->n_children) +
                                   " columns, " + row_type->ToString() + " has " +
                                   std::to_string(fields.size()));
  }
  auto batch = std::make_unique<ColumnBatch>(row_type);
  for (size_t i = 0; i < fields.size(); ++i) {
    SLUICE_RETURN_NOT_OK(arrow_internal::ImportColumn(
        *schema.children[i], *array->children[i], array->offset, array->length,
        batch->column(static_cast<int>(i)), fields[i].name));
  }
  batch->set_num_rows(array->length);
  return batch;
}

}  // namespace sluice
