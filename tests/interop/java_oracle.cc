#include "interop/java_oracle.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "test_util.h"

namespace sluice::test {

std::string OracleAnswer::error() const {
  if (head.is_object() && head.contains("error")) return head["error"].get<std::string>();
  return head.dump();
}

const JavaProgram& OracleProgram() {
  static const JavaProgram program{"java", "sluice-interop-oracle-1.jar",
                                   "org.sluice.interop.Oracle", "1g"};
  return program;
}

const JavaProgram& FlinkProgram() {
  static const JavaProgram program{"flink", "sluice-interop-flink-1.jar",
                                   "org.sluice.interop.flink.FlinkDriver", "1500m"};
  return program;
}

std::string JavaOracle::ClassPath(const JavaProgram& program) {
  const std::string target = SourceDir() + "/tests/interop/" + program.project + "/target";
  const std::string jar = target + "/" + program.jar;
  if (!std::filesystem::exists(jar) || !std::filesystem::exists(target + "/lib")) return "";
  return jar + ":" + target + "/lib/*";
}

std::unique_ptr<JavaOracle> JavaOracle::Start(const JavaProgram& program,
                                              const std::string& log_path, std::string* why) {
  const std::string class_path = ClassPath(program);
  if (class_path.empty()) {
    *why = "tests/interop/" + program.project + " is not built (its target/): run scripts/setup.sh";
    return nullptr;
  }
  const std::string heap = "-Xmx" + program.max_heap;
  int to_child[2];
  int from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0) {
    *why = "pipe() failed";
    return nullptr;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    *why = "fork() failed";
    return nullptr;
  }
  if (pid == 0) {
    dup2(to_child[0], 0);
    dup2(from_child[1], 1);
    const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) dup2(log, 2);
    close(to_child[1]);
    close(from_child[0]);
    // A small heap and one JIT thread: the machine is shared, the tables are small.
    execlp("java", "java", heap.c_str(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
           class_path.c_str(), program.main_class.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  std::unique_ptr<JavaOracle> oracle(new JavaOracle());
  oracle->pid_ = pid;
  oracle->to_java_ = fdopen(to_child[1], "w");
  oracle->from_java_ = fdopen(from_child[0], "r");
  oracle->log_path_ = log_path;
  return oracle;
}

JavaOracle::~JavaOracle() {
  if (to_java_ != nullptr) std::fclose(to_java_);  // end of input: the program exits
  if (from_java_ != nullptr) std::fclose(from_java_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

bool JavaOracle::ReadLine(std::string* line) {
  line->clear();
  char buf[65536];
  while (std::fgets(buf, sizeof(buf), from_java_) != nullptr) {
    line->append(buf);
    if (!line->empty() && line->back() == '\n') {
      line->pop_back();
      return true;
    }
  }
  return !line->empty();
}

OracleAnswer JavaOracle::Call(const nlohmann::json& command) {
  OracleAnswer answer;
  const std::string text = command.dump() + "\n";
  if (std::fwrite(text.data(), 1, text.size(), to_java_) != text.size() ||
      std::fflush(to_java_) != 0) {
    answer.head = {{"error", "the Java oracle is gone (see " + log_path_ + ")"}};
    return answer;
  }
  std::string line;
  if (!ReadLine(&line)) {
    answer.head = {{"error", "the Java oracle closed its output (see " + log_path_ + ")"}};
    return answer;
  }
  answer.head = nlohmann::json::parse(line, nullptr, false);
  if (answer.head.is_discarded()) {
    answer.head = {{"error", "unparsable answer: " + line}};
    return answer;
  }
  const int64_t rows = answer.ok() ? answer.head.value("rows", int64_t{0}) : 0;
  for (int64_t i = 0; i < rows && ReadLine(&line); ++i) answer.rows.push_back(line);
  return answer;
}

}  // namespace sluice::test
