#include "sluice/result.h"

#include <cstdio>
#include <cstdlib>

namespace sluice::internal {

void DieOnErrorResultAccess(const Status& status) {
  std::fprintf(stderr, "Result::value() on an error: %s\n", status.ToString().c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace sluice::internal
