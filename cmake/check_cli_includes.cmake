# Fails naming every `#include "sluice/..."` of src/sluice/cli/ that is neither the CLI's own
# (sluice/cli/...), the sql front end's (sluice/sql/...), the service's (sluice/service/...) nor
# a public header
# (include/sluice/<name>.h). Run: cmake -DSOURCE_DIR=... -P
file(GLOB cli_files "${SOURCE_DIR}/src/sluice/cli/*.cc" "${SOURCE_DIR}/src/sluice/cli/*.h")
set(bad "")
foreach(file ${cli_files})
  file(STRINGS ${file} lines REGEX "^#include \"sluice/")
  foreach(line ${lines})
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
    if(header MATCHES "^sluice/(cli|sql|service)/[^/]+\\.h$")
      continue()
    endif()
    if(header MATCHES "^sluice/[^/]+\\.h$" AND EXISTS "${SOURCE_DIR}/include/${header}")
      continue()
    endif()
    get_filename_component(name ${file} NAME)
    string(APPEND bad "\n  ${name}: ${header}")
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "the CLI includes internal headers:${bad}")
endif()
message(STATUS "the CLI includes only public headers and its own")
