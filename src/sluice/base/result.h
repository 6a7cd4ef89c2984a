// Moved to the public API: include/sluice/result.h.
#pragma once

#include "sluice/result.h"  // IWYU pragma: export
