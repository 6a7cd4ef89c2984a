// Moved to the public API: include/sluice/status.h.
#pragma once

#include "sluice/status.h"  // IWYU pragma: export
