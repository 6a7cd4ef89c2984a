// Moved to the public API: include/sluice/value.h.
#pragma once

#include "sluice/value.h"  // IWYU pragma: export
