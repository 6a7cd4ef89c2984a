// The SQL example of README.md, run as it is written there (through the sluice binary and a
// shell) and its output compared with the output the README shows.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace sluice {
namespace {

// The indented (4 spaces) lines from `*line` on, without the indent; `*line` ends after them.
std::string IndentedBlock(const std::vector<std::string>& lines, size_t* line) {
  std::string out;
  while (*line < lines.size() && lines[*line].rfind("    ", 0) == 0) {
    out += lines[*line].substr(4) + "\n";
    ++*line;
  }
  return out;
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

TEST(SqlReadmeExample, RunsAsWrittenAndPrintsWhatTheReadmeShows) {
  std::vector<std::string> lines;
  {
    std::istringstream readme(test::ReadFileOrFail(test::SourceDir() + "/README.md"));
    for (std::string l; std::getline(readme, l);) lines.push_back(l);
  }
  size_t line = 0;
  while (line < lines.size() && lines[line] != "<!-- sql-example -->") ++line;
  ASSERT_LT(line, lines.size()) << "README.md has no <!-- sql-example --> block";
  ++line;
  std::string command = IndentedBlock(lines, &line);
  while (line < lines.size() && lines[line].rfind("    ", 0) != 0) ++line;
  std::string expected = IndentedBlock(lines, &line);
  ASSERT_NE(command.find("build/release/sluice sql"), std::string::npos);
  ASSERT_FALSE(expected.empty());

  test::TempDir dir;
  command = ReplaceAll(command, "build/release/sluice", SLUICE_BINARY);
  command = ReplaceAll(command, "/tmp/sluice-sql-example", dir.path() + "/wh");
  std::string script = dir.path() + "/example.sh";
  std::ofstream(script) << command;
  FILE* pipe = popen(("sh " + script + " 2>&1").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof(buffer), pipe)) > 0;) output.append(buffer, n);
  EXPECT_EQ(pclose(pipe), 0) << output;
  // CSV lines end in CRLF (RFC 4180); the README shows lines.
  EXPECT_EQ(ReplaceAll(output, "\r\n", "\n"), expected);
}

}  // namespace
}  // namespace sluice
