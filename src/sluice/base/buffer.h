// Moved to the public API: include/sluice/buffer.h.
#pragma once

#include "sluice/buffer.h"  // IWYU pragma: export
