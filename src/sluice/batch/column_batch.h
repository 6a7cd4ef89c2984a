// Moved to the public API: include/sluice/column_batch.h.
#pragma once

#include "sluice/column_batch.h"  // IWYU pragma: export
