#include "sluice/types/decimal_math.h"

#include <array>

namespace sluice {

namespace {

using uint128_t = unsigned __int128;

constexpr std::array<int128_t, 39> MakePowers() {
  std::array<int128_t, 39> p{};
  p[0] = 1;
  for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}

constexpr std::array<int128_t, 39> kPowers = MakePowers();

int128_t Abs(int128_t v) { return v < 0 ? -v : v; }

}  // namespace

int128_t Pow10(int n) { return kPowers[static_cast<size_t>(n)]; }

int128_t DivideHalfUp(int128_t n, int128_t d) {
  int128_t q = n / d;
  const int128_t r = n % d;
  if (r != 0 && Abs(r) >= Abs(d) - Abs(r)) q += ((n < 0) != (d < 0)) ? -1 : 1;
  return q;
}

int128_t RescaleHalfUp(int128_t unscaled, int from_scale, int to_scale) {
  if (to_scale >= from_scale) {
    uint128_t v = static_cast<uint128_t>(unscaled);
    for (int up = to_scale - from_scale; up > 0; up -= 38) {
      v *= static_cast<uint128_t>(Pow10(up < 38 ? up : 38));
    }
    return static_cast<int128_t>(v);
  }
  // |unscaled| < 2^127 < 10^39 / 2: dropping 39 or more digits always rounds to 0.
  const int down = from_scale - to_scale;
  return down > 38 ? 0 : DivideHalfUp(unscaled, Pow10(down));
}

bool FitsPrecision(int128_t unscaled, int precision) {
  const int128_t bound = Pow10(precision);
  return unscaled < bound && unscaled > -bound;
}

}  // namespace sluice
