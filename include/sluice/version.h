// The version of the Sluice library these headers belong to. Version() reports the library
// actually linked, so a program can tell when its headers and the shared library differ.
//
// Thread safety: constants.
#pragma once

#define SLUICE_VERSION_MAJOR 0
#define SLUICE_VERSION_MINOR 1
#define SLUICE_VERSION_PATCH 0
#define SLUICE_VERSION_STRING "0.1.0"

namespace sluice {

// "MAJOR.MINOR.PATCH" of the linked library.
const char* Version();

}  // namespace sluice
