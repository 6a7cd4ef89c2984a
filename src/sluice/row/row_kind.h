// Moved to the public API: include/sluice/row_kind.h.
#pragma once

#include "sluice/row_kind.h"  // IWYU pragma: export
