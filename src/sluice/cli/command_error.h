// How a `sluice` command reports its failure: one line on stderr, "sluice VERB: message", with
// the values of credentials masked (base/secret_mask.h), since a status may quote an argument
// such as `s3.secret-key=...`.
//
// Thread safety: writes to stderr.
#pragma once

#include <string_view>

#include "sluice/status.h"

namespace sluice::cli {

// Prints `status` as the error of `command` ("read", "action kafka_sync_table") and returns
// the command's exit status, 1.
int PrintCommandError(std::string_view command, const Status& status);

// Prints `line` on stderr with credentials masked, and a newline.
void PrintMaskedLine(std::string_view line);

}  // namespace sluice::cli
