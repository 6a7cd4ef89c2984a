// Moved to the public API: include/sluice/column_vector.h.
#pragma once

#include "sluice/column_vector.h"  // IWYU pragma: export
