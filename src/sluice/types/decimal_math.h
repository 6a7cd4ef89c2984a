// Arithmetic on unscaled decimal values (int128): powers of ten, Java's HALF_UP rounding and
// rescaling, the one home for what decimal casts, comparisons, aggregators and the codecs share.
//
// Thread safety: pure functions.
#pragma once

#include "sluice/value.h"

namespace sluice {

// 10^n. REQUIRES: 0 <= n <= 38.
int128_t Pow10(int n);

// n / d rounded half away from zero (Java BigDecimal RoundingMode.HALF_UP). REQUIRES: d != 0.
int128_t DivideHalfUp(int128_t n, int128_t d);

// An unscaled value at `from_scale` moved to `to_scale`, rounding HALF_UP when digits are
// dropped (Java BigDecimal.setScale(to_scale, HALF_UP)). Scaling up past 38 digits wraps
// (unsigned arithmetic) instead of invoking undefined behaviour: check FitsPrecision after.
// Any scales (corrupt files carry any).
int128_t RescaleHalfUp(int128_t unscaled, int from_scale, int to_scale);

// Whether the unscaled value has at most `precision` digits. REQUIRES: 0 <= precision <= 38.
bool FitsPrecision(int128_t unscaled, int precision);

}  // namespace sluice
