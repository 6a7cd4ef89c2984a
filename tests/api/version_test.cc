// The version header, the library's Version() and the CMake project version agree.
#include "sluice/version.h"

#include <gtest/gtest.h>

#include <string>

namespace sluice {
namespace {

TEST(VersionTest, HeaderLibraryAndProjectAgree) {
  EXPECT_STREQ(Version(), SLUICE_VERSION_STRING);
  EXPECT_EQ(std::string(SLUICE_VERSION_STRING), SLUICE_PROJECT_VERSION);
  EXPECT_EQ(std::string(SLUICE_VERSION_STRING), std::to_string(SLUICE_VERSION_MAJOR) + "." +
                                                    std::to_string(SLUICE_VERSION_MINOR) + "." +
                                                    std::to_string(SLUICE_VERSION_PATCH));
}

}  // namespace
}  // namespace sluice
