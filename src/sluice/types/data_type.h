// Moved to the public API: include/sluice/data_type.h.
#pragma once

#include "sluice/data_type.h"  // IWYU pragma: export
