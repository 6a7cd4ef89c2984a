// Runs the `sluice` binary built next to the tests, for the tests that drive its command line.
//
// Thread safety: thread-safe (each call runs its own process and scratch directory).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "test_util.h"

namespace sluice::test {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  // Empty when stderr was merged into `out`.
  std::string err;
};

// Runs the shell command `command`, collecting its stdout; exit_code is -1 when it could not be
// started or did not exit normally.
inline CommandResult RunShellCommand(const std::string& command) {
  CommandResult result;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return result;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) result.out.append(buf, n);
  const int status = pclose(p);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// Runs `sluice <args>` (split by the shell): stdout in `out`, stderr in `err`.
inline CommandResult RunSluice(const std::string& args) {
  TempDir dir;
  const std::string err_path = dir.path() + "/stderr";
  CommandResult result = RunShellCommand(BinaryDir() + "/sluice " + args + " 2>" + err_path);
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  result.err = text.str();
  return result;
}

// Runs `sluice <args>` with stderr merged into `out`, in the order the binary wrote them.
inline CommandResult RunSluiceMergingStderr(const std::string& args) {
  return RunShellCommand(BinaryDir() + "/sluice " + args + " 2>&1");
}

}  // namespace sluice::test
