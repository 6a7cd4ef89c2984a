#include "sluice/version.h"

namespace sluice {

const char* Version() { return SLUICE_VERSION_STRING; }

}  // namespace sluice
