// JavaOracle: a Java program of the interop tests (the Java Paimon oracle of tests/interop/java,
// the Flink driver of tests/interop/flink), started once per test run (the JVM start-up is slow)
// and driven through JSON lines on its stdin / stdout. Each Call sends one
// command and waits for its answer: the head line ({"ok": true, ...} or {"error": ...}) and, when
// the head says "rows": N, the N row lines that follow it.
//
// Thread safety: not thread-safe (one command in flight).
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sluice::test {

struct OracleAnswer {
  nlohmann::json head;
  std::vector<std::string> rows;
  bool ok() const { return head.is_object() && head.value("ok", false); }
  std::string error() const;
};

// A Maven project under tests/interop and the program it builds.
struct JavaProgram {
  std::string project;  // folder under tests/interop
  std::string jar;      // the jar under its target/
  std::string main_class;
  std::string max_heap;  // -Xmx value
};
const JavaProgram& OracleProgram();
const JavaProgram& FlinkProgram();

class JavaOracle {
 public:
  // Starts `java -cp <jar>:<lib>/* <main class>` with its stderr in `log_path`. Returns null
  // and sets `why` when the program is not built or does not start.
  static std::unique_ptr<JavaOracle> Start(const JavaProgram& program, const std::string& log_path,
                                           std::string* why);
  ~JavaOracle();
  JavaOracle(const JavaOracle&) = delete;
  JavaOracle& operator=(const JavaOracle&) = delete;

  OracleAnswer Call(const nlohmann::json& command);
  const std::string& log_path() const { return log_path_; }

  // The classpath of the built program (tests/interop/<project>/target), or "" when not built.
  static std::string ClassPath(const JavaProgram& program);

 private:
  JavaOracle() = default;
  bool ReadLine(std::string* line);

  pid_t pid_ = -1;
  std::FILE* to_java_ = nullptr;
  std::FILE* from_java_ = nullptr;
  std::string log_path_;
};

}  // namespace sluice::test
