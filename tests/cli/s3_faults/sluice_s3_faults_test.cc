// The `sluice` command on an S3 warehouse when the store fails under it (issue 36): a burst of
// 503 SlowDown answers, a connection reset that loses the answer of a request the server did, and
// the server process killed (SIGKILL) while a command uploads a data file, writes its manifest list
// or commits a snapshot, then started again on the same storage (scripts/s3.sh restart).
//
// Each test runs its own S3Proxy (scripts/s3.sh start --port N, a port per test; stopped at the
// end) behind the fault proxy of tests/fs/s3/server (FaultProxy). What must hold after every
// fault: the command retried to success, or failed with an error naming the bucket, the key and
// what went wrong; no acknowledged commit is lost and none lands twice; no object that is not
// complete is listed (every data file in the table's folders is a whole Parquet file, footer
// included); no snapshot names a missing file (`sluice check` is clean).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>

#include "cli/cli_test_util.h"
#include "fs/s3/server/fault_proxy.h"
#include "sluice/fs/s3/s3_file_io.h"
#include "sluice/fs/s3/s3_options.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::FaultProxy;
using test::RunShellCommand;
using test::RunSluiceMergingStderr;

constexpr char kBucket[] = "sluice";
constexpr int kWaitMs = 120000;

bool PortOpen(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool open = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  ::close(fd);
  return open;
}

// The test's own S3Proxy on `port` (scripts/s3.sh): started fresh, stopped at the end.
class S3Server {
 public:
  explicit S3Server(int port) : port_(port) {}
  ~S3Server() { Script("stop"); }
  int port() const { return port_; }
  CommandResult Script(const std::string& verb) const {
    return RunShellCommand(test::SourceDir() + "/scripts/s3.sh " + verb + " --port " +
                           std::to_string(port_) + " 2>&1");
  }
  // SIGKILL, as a crash: no shutdown of any kind. Returns once the port no longer answers.
  bool Kill() const {
    std::ifstream pid_file(test::SourceDir() + "/build/s3/" + std::to_string(port_) +
                           "/server.pid");
    pid_t pid = 0;
    if (!(pid_file >> pid) || pid <= 0 || ::kill(pid, SIGKILL) != 0) return false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWaitMs);
    while (PortOpen(port_)) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::yield();
    }
    return true;
  }

 private:
  int port_;
};

class SluiceS3FaultsTest : public ::testing::Test {
 protected:
  // Each test its own port, so that ctest may run them at once.
  void Start(int port) {
    server_ = std::make_unique<S3Server>(port);
    CommandResult started = server_->Script("start");
    ASSERT_EQ(started.exit_code, 0) << started.out;
    proxy_ = std::make_unique<FaultProxy>(port);
    ASSERT_FALSE(proxy_->endpoint().empty());
    std::random_device random;
    prefix_ = "faults-" + std::to_string(random()) + std::to_string(random());
    warehouse_ = std::string("s3://") + kBucket + "/" + prefix_;
    std::map<std::string, std::string> options = {{"s3.endpoint", Direct()},
                                                  {"s3.access-key", "sluice-test"},
                                                  {"s3.secret-key", "sluice-test-secret"},
                                                  {"s3.path.style.access", "true"}};
    Result<S3Options> s3 = S3Options::FromOptions(options);
    ASSERT_TRUE(s3.ok()) << s3.status().ToString();
    Result<std::shared_ptr<FileIO>> io = MakeS3FileIO(*s3);
    ASSERT_TRUE(io.ok()) << io.status().ToString();
    io_ = *io;
    ASSERT_EQ(Sluice("create-database db").exit_code, 0);
    CommandResult created = Sluice(
        "create-table db.t --column 'id INT NOT NULL' --column 's STRING'"
        " --option bucket=1 --option bucket-key=id --option file.compression=none");
    ASSERT_EQ(created.exit_code, 0) << created.out;
  }
  void TearDown() override {
    proxy_.reset();
    server_.reset();
  }

  // The request line of the conditional create of snapshot-`id`, for FaultProxy::OnlyFor.
  std::string SnapshotPut(int id) const {
    return "PUT /" + std::string(kBucket) + "/" + prefix_ + "/db.db/t/snapshot/snapshot-" +
           std::to_string(id) + " ";
  }
  std::string Direct() const { return "http://127.0.0.1:" + std::to_string(server_->port()); }
  std::string Table() const { return warehouse_ + "/db.db/t"; }

  // `sluice <args>` on db.t's warehouse through the fault proxy.
  CommandResult Sluice(const std::string& args, const std::string& more_conf = "") const {
    return RunSluiceMergingStderr(
        args + " --warehouse " + warehouse_ + " --catalog_conf s3.endpoint=" + proxy_->endpoint() +
        " --catalog_conf s3.access-key=sluice-test --catalog_conf "
        "s3.secret-key=sluice-test-secret --catalog_conf s3.path.style.access=true" +
        more_conf);
  }

  // A JSON-lines file of `rows` rows with ids from `first`, each with a 200-character string
  // (incompressible: 30,000 rows make a data file past the 5 MiB multipart threshold).
  std::string Input(int first, int rows) {
    const std::string path = inputs_.path() + "/rows-" + std::to_string(first) + ".jsonl";
    std::ofstream out(path);
    std::mt19937_64 rng(static_cast<uint64_t>(first));
    for (int i = 0; i < rows; ++i) {
      std::string s;
      while (s.size() < 200) {
        char hex[17];
        std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(rng()));
        s += hex;
      }
      out << "{\"id\":" << first + i << ",\"s\":\"" << s.substr(0, 200) << "\"}\n";
    }
    return path;
  }
  CommandResult Write(int first, int rows, const std::string& more_conf = "") {
    return WriteFile(Input(first, rows), more_conf);
  }
  CommandResult WriteFile(const std::string& input, const std::string& more_conf = "") const {
    return Sluice("write db.t --input " + input, more_conf);
  }

  // The rows' count and distinct ids, as "n/d".
  std::string Rows() const {
    CommandResult r =
        Sluice("sql \"SELECT count(*) AS n, count(DISTINCT id) AS d FROM db.t\" --format jsonl");
    EXPECT_EQ(r.exit_code, 0) << r.out;
    nlohmann::json row = nlohmann::json::parse(r.out, nullptr, false);
    if (!row.is_object()) return r.out;
    return std::to_string(row.value("n", -1)) + "/" + std::to_string(row.value("d", -1));
  }

  // The snapshot files of db.t.
  std::vector<std::string> Snapshots() const {
    std::vector<std::string> out;
    Result<std::vector<FileStatus>> list = io_->ListDir(Table() + "/snapshot");
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    if (!list.ok()) return out;
    for (const FileStatus& f : *list) {
      const std::string name = f.path.substr(f.path.rfind('/') + 1);
      if (name.rfind("snapshot-", 0) == 0) out.push_back(name);
    }
    return out;
  }

  // Every object listed under the table's bucket-0/ is a whole Parquet file (the magic at both
  // ends; a partial upload would have neither a footer nor a listing).
  void ExpectOnlyCompleteDataFiles() const {
    Result<std::vector<FileStatus>> list = io_->ListDir(Table() + "/bucket-0");
    ASSERT_TRUE(list.ok()) << list.status().ToString();
    for (const FileStatus& f : *list) {
      Result<std::string> content = io_->ReadFile(f.path);
      ASSERT_TRUE(content.ok()) << content.status().ToString();
      EXPECT_GE(content->size(), 12u) << f.path;
      EXPECT_EQ(content->substr(0, 4), "PAR1") << f.path;
      EXPECT_EQ(content->substr(content->size() - 4), "PAR1") << f.path;
      EXPECT_EQ(static_cast<int64_t>(content->size()), f.size) << f.path;
    }
  }

  void ExpectCheckClean(const std::string& snapshots) const {
    CommandResult r = Sluice("check db.t");
    EXPECT_EQ(r.exit_code, 0) << r.out;
    EXPECT_NE(r.out.find(snapshots + " snapshots"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("OK"), std::string::npos) << r.out;
  }

  std::unique_ptr<S3Server> server_;
  std::unique_ptr<FaultProxy> proxy_;
  std::shared_ptr<FileIO> io_;
  std::string prefix_;
  std::string warehouse_;
  test::TempDir inputs_;
};

// A burst of 503 SlowDown on every request, then on the snapshot's conditional create: the
// command backs off and retries to success.
TEST_F(SluiceS3FaultsTest, ABurstOf503sIsRetriedToSuccess) {
  ASSERT_NO_FATAL_FAILURE(Start(19431));
  ASSERT_EQ(Write(0, 10).exit_code, 0);
  proxy_->FailNext(4);
  CommandResult r = Write(100, 10);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(proxy_->faulted(), 4);
  proxy_->OnlyFor(SnapshotPut(3));
  proxy_->FailNext(3);
  r = Write(200, 10);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(proxy_->faulted(), 7);
  EXPECT_EQ(Rows(), "30/30");
  EXPECT_EQ(Snapshots().size(), 3u);
  ExpectOnlyCompleteDataFiles();
  ExpectCheckClean("3");
}

// 503s past the retry budget: the command fails, naming the bucket, the key and the status, and
// leaves no snapshot; the table is as before it.
TEST_F(SluiceS3FaultsTest, EndlessSlowDownFailsTheCommandClearly) {
  ASSERT_NO_FATAL_FAILURE(Start(19432));
  ASSERT_EQ(Write(0, 10).exit_code, 0);
  proxy_->OnlyFor(SnapshotPut(2));
  proxy_->FailNext(1000);
  // Three attempts a request; the commit itself tries twice.
  CommandResult r =
      Write(100, 10, " --catalog_conf s3.attempts.maximum=3 --option commit.max-retries=1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("503"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SlowDown"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bucket 'sluice'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(prefix_ + "/db.db/t/snapshot/snapshot-2"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("sluice-test-secret"), std::string::npos) << r.out;
  EXPECT_GE(proxy_->faulted(), 3);
  EXPECT_EQ(proxy_->faulted() % 3, 0);
  proxy_->FailNext(0);
  EXPECT_EQ(Rows(), "10/10");
  EXPECT_EQ(Snapshots(), std::vector<std::string>{"snapshot-1"});
  ExpectOnlyCompleteDataFiles();
  ExpectCheckClean("1");
}

// The connection is reset after the server did the request: on the snapshot's conditional
// create (the retry finds its own object: the commit lands once, not twice and not lost) and
// on a data file's PUT (retried).
TEST_F(SluiceS3FaultsTest, AResetAfterTheServerDidTheRequestIsRetried) {
  ASSERT_NO_FATAL_FAILURE(Start(19433));
  ASSERT_EQ(Write(0, 10).exit_code, 0);
  proxy_->OnlyFor(SnapshotPut(2));
  proxy_->DropAnswerOfNext(1);
  CommandResult r = Write(100, 10);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(proxy_->faulted(), 1);
  proxy_->OnlyFor("PUT /" + std::string(kBucket) + "/" + prefix_ + "/db.db/t/bucket-0/data-");
  proxy_->DropAnswerOfNext(1);
  r = Write(200, 10);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(proxy_->faulted(), 2);
  EXPECT_EQ(Rows(), "30/30");
  EXPECT_EQ(Snapshots().size(), 3u);
  ExpectOnlyCompleteDataFiles();
  ExpectCheckClean("3");
}

// The server is killed while a data file's multipart upload waits on its first part; the
// command (two attempts a request) fails naming the object. Restarted on the same storage, the
// table lists no part of that file, holds the first commit only, and takes the write again.
TEST_F(SluiceS3FaultsTest, ServerKilledMidUpload) {
  ASSERT_NO_FATAL_FAILURE(Start(19434));
  ASSERT_EQ(Write(0, 10).exit_code, 0);
  const std::string conf =
      " --catalog_conf s3.multipart.size=5m --catalog_conf s3.attempts.maximum=2";
  const std::string big = Input(1000, 30000);
  proxy_->OnlyFor("?partNumber=1&");
  proxy_->HoldNext();
  std::future<CommandResult> write =
      std::async(std::launch::async, [&] { return WriteFile(big, conf); });
  ASSERT_TRUE(proxy_->WaitUntilHeld(kWaitMs)) << write.get().out;
  ASSERT_TRUE(server_->Kill());
  proxy_->Release();
  CommandResult r = write.get();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("bucket 'sluice'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(prefix_ + "/db.db/t/bucket-0/data-"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after 2 attempts"), std::string::npos) << r.out;

  CommandResult restarted = server_->Script("restart");
  ASSERT_EQ(restarted.exit_code, 0) << restarted.out;
  Result<std::vector<FileStatus>> data = io_->ListDir(Table() + "/bucket-0");
  ASSERT_TRUE(data.ok()) << data.status().ToString();
  EXPECT_EQ(data->size(), 1u);  // the first commit's file only
  ExpectOnlyCompleteDataFiles();
  EXPECT_EQ(Snapshots(), std::vector<std::string>{"snapshot-1"});
  EXPECT_EQ(Rows(), "10/10");
  ExpectCheckClean("1");

  r = WriteFile(big, conf);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(Rows(), "30010/30010");
  ExpectOnlyCompleteDataFiles();
  ExpectCheckClean("2");
}

// The server is killed while the command's conditional create of snapshot-2 waits in the
// proxy, and restarted on the same storage while the command backs off: the command retries
// to success (or, if its retries ran out first, fails naming the snapshot's key). Either way
// the first commit stays, the second is in the table exactly when the command said so, and
// the table checks clean.
TEST_F(SluiceS3FaultsTest, ServerKilledMidCommit) {
  ASSERT_NO_FATAL_FAILURE(Start(19435));
  ASSERT_EQ(Write(0, 10).exit_code, 0);
  const std::string second = Input(100, 10);
  proxy_->OnlyFor(SnapshotPut(2));
  proxy_->HoldNext();
  std::future<CommandResult> write =
      std::async(std::launch::async, [&] { return WriteFile(second); });
  ASSERT_TRUE(proxy_->WaitUntilHeld(kWaitMs)) << write.get().out;
  ASSERT_TRUE(server_->Kill());
  proxy_->Release();
  CommandResult restarted = server_->Script("restart");
  ASSERT_EQ(restarted.exit_code, 0) << restarted.out;
  CommandResult r = write.get();
  if (r.exit_code == 0) {
    EXPECT_EQ(Rows(), "20/20");
    EXPECT_EQ(Snapshots(), (std::vector<std::string>{"snapshot-1", "snapshot-2"}));
    ExpectCheckClean("2");
  } else {
    EXPECT_NE(r.out.find(prefix_ + "/db.db/t/snapshot/snapshot-2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bucket 'sluice'"), std::string::npos) << r.out;
    EXPECT_EQ(Rows(), "10/10");
    EXPECT_EQ(Snapshots(), std::vector<std::string>{"snapshot-1"});
    ExpectCheckClean("1");
  }
  std::printf("killed mid-commit: the command %s\n",
              r.exit_code == 0 ? "retried to success" : r.out.c_str());
  ExpectOnlyCompleteDataFiles();
}

// The server is killed while the command writes its manifest list (before any snapshot), and
// stays down past the command's two attempts a request: the command fails naming the object;
// after a restart on the same storage no snapshot names the new manifests, every manifest
// object listed is a whole Avro file (its magic and sync marker at the end), and the table
// holds the first commit only.
TEST_F(SluiceS3FaultsTest, ServerKilledWhileTheManifestsAreWritten) {
  ASSERT_NO_FATAL_FAILURE(Start(19436));
  ASSERT_EQ(Write(0, 10).exit_code, 0);
  const std::string second = Input(100, 10);
  proxy_->OnlyFor("PUT /" + std::string(kBucket) + "/" + prefix_ +
                  "/db.db/t/manifest/manifest-list-");
  proxy_->HoldNext();
  std::future<CommandResult> write = std::async(std::launch::async, [&] {
    return WriteFile(second, " --catalog_conf s3.attempts.maximum=2");
  });
  ASSERT_TRUE(proxy_->WaitUntilHeld(kWaitMs)) << write.get().out;
  ASSERT_TRUE(server_->Kill());
  proxy_->Release();
  CommandResult r = write.get();
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("bucket 'sluice'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(prefix_ + "/db.db/t/manifest/manifest-list-"), std::string::npos) << r.out;
  CommandResult restarted = server_->Script("restart");
  ASSERT_EQ(restarted.exit_code, 0) << restarted.out;
  EXPECT_EQ(Snapshots(), std::vector<std::string>{"snapshot-1"});
  Result<std::vector<FileStatus>> manifests = io_->ListDir(Table() + "/manifest");
  ASSERT_TRUE(manifests.ok()) << manifests.status().ToString();
  for (const FileStatus& f : *manifests) {
    Result<std::string> content = io_->ReadFile(f.path);
    ASSERT_TRUE(content.ok()) << content.status().ToString();
    EXPECT_EQ(content->substr(0, 4), std::string("Obj\x01", 4)) << f.path;
    EXPECT_EQ(static_cast<int64_t>(content->size()), f.size) << f.path;
  }
  EXPECT_EQ(Rows(), "10/10");
  ExpectOnlyCompleteDataFiles();
  ExpectCheckClean("1");
  EXPECT_EQ(WriteFile(second).exit_code, 0);
  EXPECT_EQ(Rows(), "20/20");
  ExpectCheckClean("2");
}

}  // namespace
}  // namespace sluice
