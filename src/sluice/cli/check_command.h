// `sluice check TABLE`: runs the structural table check (table/table_checker.h) and prints what
// it covered and every problem found (each naming its file).
//
//   sluice check DB.TABLE --warehouse DIR | TABLE_DIR  [--latest] [--no-read] [--branch B]
//          [--path-remap PREFIX=DIR]...
//
// Exit status 0 when the table is sound, 1 when problems were found or the check could not run.
//
// Thread safety: run from main only.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sluice::cli {

struct CheckFlags {
  std::string table;
  std::string warehouse;
  std::string branch = "main";
  bool latest_only = false;
  bool no_read = false;
  std::vector<std::string> path_remap;
};

int RunCheck(const CheckFlags& flags);

}  // namespace sluice::cli
