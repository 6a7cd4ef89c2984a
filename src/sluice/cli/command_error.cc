#include "sluice/cli/command_error.h"

#include <cstdio>
#include <string>

#include "sluice/secret_mask.h"

namespace sluice::cli {

int PrintCommandError(std::string_view command, const Status& status) {
  std::string line = "sluice";
  if (!command.empty()) line.append(" ").append(command);
  line.append(": ").append(status.ToString());
  PrintMaskedLine(line);
  return 1;
}

void PrintMaskedLine(std::string_view line) {
  const std::string masked = MaskSecrets(line) + "\n";
  std::fwrite(masked.data(), 1, masked.size(), stderr);
}

}  // namespace sluice::cli
