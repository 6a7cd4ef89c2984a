#include "sluice/base/uuid.h"

#include <cstdint>
#include <random>

#include <unistd.h>

namespace sluice {

std::string NewUuidV4() {
  // Seeded per thread from the OS so that processes started together never share names, and
  // again in a child after fork(), which would otherwise repeat its parent's names.
  thread_local std::mt19937_64 gen;
  thread_local pid_t seeded_in = 0;
  if (seeded_in != ::getpid()) {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd()};
    gen.seed(seq);
    seeded_in = ::getpid();
  }
  uint64_t hi = gen();
  uint64_t lo = gen();
  hi = (hi & ~uint64_t{0xF000}) | uint64_t{0x4000};            // version 4
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // variant 10xx
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out.push_back('-');
    const uint64_t word = i < 16 ? hi : lo;
    const int shift = 60 - 4 * (i % 16);
    out.push_back(kHex[(word >> shift) & 0xF]);
  }
  return out;
}

}  // namespace sluice
