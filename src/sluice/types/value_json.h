// Moved to the public API: include/sluice/value_json.h.
#pragma once

#include "sluice/value_json.h"  // IWYU pragma: export
