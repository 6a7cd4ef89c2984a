#include "sluice/meta/manifest_entry.h"

namespace sluice {

std::string_view FileKindName(FileKind kind) { return kind == FileKind::kAdd ? "ADD" : "DELETE"; }

}  // namespace sluice
