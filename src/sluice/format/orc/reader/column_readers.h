// The ORC column readers, one file per type family (reader/<family>_column_reader.cc), built by
// MakeColumnReader (column_reader.cc) once it has matched the ORC type to the read type.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/format/orc/column_reader.h"

namespace sluice::orc {

// BOOLEAN columns.
std::unique_ptr<ColumnReader> NewBooleanColumnReader(uint32_t column, const std::string& path);
// TINYINT / SMALLINT / INT / BIGINT, DATE and TIME columns.
std::unique_ptr<ColumnReader> NewIntegerColumnReader(uint32_t column, const std::string& path,
                                                     bool byte_rle);
// FLOAT and DOUBLE columns.
std::unique_ptr<ColumnReader> NewFloatingColumnReader(uint32_t column, const std::string& path,
                                                      bool is_float);
// STRING / VARCHAR / CHAR and BINARY columns, direct or dictionary.
std::unique_ptr<ColumnReader> NewStringColumnReader(uint32_t column, const std::string& path,
                                                    bool trim_char);
// DECIMAL columns, varint or Decimal64 RLE.
std::unique_ptr<ColumnReader> NewDecimalColumnReader(uint32_t column, const std::string& path,
                                                     int file_scale, int read_scale, bool compact);
// TIMESTAMP and TIMESTAMP_INSTANT columns.
std::unique_ptr<ColumnReader> NewTimestampColumnReader(uint32_t column, const std::string& path,
                                                       bool instant, int precision);
// STRUCT columns.
std::unique_ptr<ColumnReader> NewStructColumnReader(
    uint32_t column, const std::string& path, std::vector<std::unique_ptr<ColumnReader>> children);
// LIST and MAP columns: a LENGTH stream over child columns.
std::unique_ptr<ColumnReader> NewRepeatedColumnReader(
    uint32_t column, const std::string& path, std::vector<std::unique_ptr<ColumnReader>> children);

}  // namespace sluice::orc
