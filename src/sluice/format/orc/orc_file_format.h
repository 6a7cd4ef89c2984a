// The ORC FileFormat: Paimon's `file.format = orc` / `manifest.format = orc`.
//
// Thread safety: the FileFormat is immutable and thread-safe; its readers and writers are not.
#pragma once

#include <memory>

#include "sluice/format/file_format.h"

namespace sluice {

std::shared_ptr<const FileFormat> OrcFormat();

}  // namespace sluice
