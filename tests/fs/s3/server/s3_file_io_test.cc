// The S3 FileIO against a real S3-compatible server (the `s3` fixture: scripts/s3.sh, S3Proxy
// on 127.0.0.1, at SLUICE_S3_ENDPOINT): reads, ranged reads, writes in one PUT and in parts,
// conditional creates that exactly one of several racing writers wins (retries included),
// listings across pages, deletes, renames, retries through injected faults, and errors that
// name bucket, key and status but never the secret. Each test works under a prefix of its own
// in the fixture's bucket.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <thread>
#include <vector>

#include "fault_proxy.h"
#include "sluice/base/uuid.h"
#include "sluice/fs/file_io_factory.h"
#include "sluice/fs/s3/s3_client.h"
#include "sluice/fs/s3/s3_file_io.h"
#include "sluice/fs/s3/s3_options.h"
#include "sluice/fs/s3/s3_xml.h"
#include "test_util.h"

namespace sluice {
namespace {

// scripts/s3.sh's test identity and bucket.
constexpr const char* kAccessKey = "sluice-test";
constexpr const char* kSecretKey = "sluice-test-secret";
constexpr const char* kBucket = "sluice";

std::string Endpoint() {
  const char* env = std::getenv("SLUICE_S3_ENDPOINT");
  return env != nullptr && *env != '\0' ? env : "http://127.0.0.1:19400";
}

int EndpointPort() {
  const std::string endpoint = Endpoint();
  return std::atoi(endpoint.substr(endpoint.rfind(':') + 1).c_str());
}

S3Options TestOptions(const std::string& endpoint = Endpoint()) {
  S3Options options;
  options.endpoint = endpoint;
  options.access_key = kAccessKey;
  options.secret_key = kSecretKey;
  options.path_style_access = true;
  options.multipart_size = 5 << 20;
  options.list_page_size = 7;
  options.retry_base_delay_ms = 10;
  options.retry_max_delay_ms = 50;
  return options;
}

class S3FileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = std::string("s3://") + kBucket + "/" + info->name() + "-" + NewUuidV4().substr(0, 8);
    ASSERT_OK_AND_ASSIGN(io_, MakeS3FileIO(TestOptions()));
  }

  Status Write(const std::string& path, std::string_view content, bool overwrite = false) {
    SLUICE_ASSIGN_OR_RETURN(auto file, io_->OpenForWrite(path, overwrite));
    SLUICE_RETURN_NOT_OK(file->Append(content));
    return file->Close();
  }

  std::vector<std::string> Names(const std::string& dir) {
    std::vector<std::string> names;
    auto listed = io_->ListDir(dir);
    EXPECT_OK(listed);
    if (!listed.ok()) return names;
    for (const auto& f : *listed)
      names.push_back(f.path.substr(dir.size() + 1) + (f.is_dir ? "/" : ""));
    return names;
  }

  // The multipart uploads in progress under this test's prefix.
  int PendingUploads() {
    auto client = S3Client::Make(TestOptions());
    EXPECT_OK(client);
    S3Request list{"GET", kBucket, "", {{"uploads", ""}, {"prefix", root_.substr(12)}}, {}, {}};
    auto response = (*client)->Send(list);
    EXPECT_OK(response);
    EXPECT_EQ(response->status, 200) << response->body;
    return static_cast<int>(XmlElements(response->body, "Upload").size());
  }

  std::string root_;
  std::shared_ptr<FileIO> io_;
};

std::string Pattern(size_t n) {
  std::string out(n, '\0');
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  return out;
}

TEST_F(S3FileIOTest, WriteReadRangedReadAndStatus) {
  const std::string path = root_ + "/a/b/file";
  ASSERT_OK_AND_ASSIGN(auto out, io_->OpenForWrite(path, /*overwrite=*/false));
  ASSERT_OK(out->Append("hello "));
  ASSERT_OK(out->Append("world"));
  EXPECT_EQ(out->bytes_written(), 11);
  EXPECT_FALSE(*io_->Exists(path)) << "an object appears only when its writer closes";
  ASSERT_OK(out->Close());
  EXPECT_EQ(*io_->ReadFile(path), "hello world");
  // Java writes s3a:// paths to the same objects.
  EXPECT_EQ(*io_->ReadFile("s3a" + path.substr(2)), "hello world");
  EXPECT_TRUE(*io_->Exists(path));
  EXPECT_TRUE(*io_->Exists(root_ + "/a/b"));
  EXPECT_TRUE(*io_->Exists(root_ + "/a/b/"));
  EXPECT_FALSE(*io_->Exists(root_ + "/a/c"));
  ASSERT_OK_AND_ASSIGN(FileStatus status, io_->GetStatus(path));
  EXPECT_EQ(status.size, 11);
  EXPECT_FALSE(status.is_dir);
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  EXPECT_LT(std::abs(status.modification_time_ms - now_ms), 10 * 60 * 1000);
  EXPECT_TRUE(io_->GetStatus(root_ + "/a")->is_dir);
  EXPECT_TRUE(test::HasError(io_->GetStatus(root_ + "/nope"), StatusCode::kNotFound,
                             {root_ + "/nope: stat", "bucket 'sluice'"}));

  ASSERT_OK_AND_ASSIGN(auto file, io_->OpenForRead(path));
  EXPECT_EQ(file->size(), 11);
  uint8_t buf[5];
  ASSERT_OK(file->ReadAt(6, 5, buf));
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 5), "world");
  ASSERT_OK(file->ReadAt(11, 0, buf));
  EXPECT_TRUE(test::HasError(file->ReadAt(8, 5, buf), StatusCode::kCorruption,
                             {path, "read of 5 bytes at"}));
  // A read is bound to the version it opened: a small file came whole with its open and keeps
  // reading that version; a ranged GET of a larger one fails once it is replaced.
  const std::string large = root_ + "/a/large";
  ASSERT_OK(Write(large, Pattern(3 << 20)));
  ASSERT_OK_AND_ASSIGN(auto opened, io_->OpenForRead(large));
  ASSERT_OK(Write(path, "HELLO WORLD", /*overwrite=*/true));
  ASSERT_OK(Write(large, Pattern(3 << 20) + "!", /*overwrite=*/true));
  ASSERT_OK(file->ReadAt(0, 5, buf));
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 5), "hello");
  EXPECT_TRUE(test::HasError(opened->ReadAt(2 << 20, 5, buf), StatusCode::kIOError,
                             {large, "replaced since it was opened", "412"}));
  EXPECT_TRUE(test::HasError(io_->ReadFile(root_ + "/missing"), StatusCode::kNotFound,
                             {root_ + "/missing: open", "HTTP 404", "NoSuchKey"}));
  EXPECT_TRUE(test::HasError(io_->OpenForRead(root_ + "/missing"), StatusCode::kNotFound,
                             {root_ + "/missing: open"}));
}

TEST_F(S3FileIOTest, LargeFileIsUploadedInPartsAndVisibleOnlyOnceComplete) {
  const std::string path = root_ + "/big";
  const std::string content = Pattern((12 << 20) + 12345);  // three parts of the 5 MiB minimum
  ASSERT_OK_AND_ASSIGN(auto out, io_->OpenForWrite(path, /*overwrite=*/false));
  for (size_t at = 0; at < content.size(); at += 1 << 20) {
    ASSERT_OK(out->Append(std::string_view(content).substr(at, 1 << 20)));
  }
  EXPECT_EQ(PendingUploads(), 1);
  EXPECT_FALSE(*io_->Exists(path)) << "parts are uploaded, but no object exists before Close";
  ASSERT_OK(out->Close());
  EXPECT_EQ(PendingUploads(), 0);
  ASSERT_OK_AND_ASSIGN(auto file, io_->OpenForRead(path));
  ASSERT_EQ(file->size(), static_cast<int64_t>(content.size()));
  // Across the first part boundary.
  std::string range(100, '\0');
  ASSERT_OK(file->ReadAt((5 << 20) - 50, 100, reinterpret_cast<uint8_t*>(range.data())));
  EXPECT_EQ(range, content.substr((5 << 20) - 50, 100));
  EXPECT_TRUE(*io_->ReadFile(path) == content);

  // A writer dropped without Close aborts its upload: nothing is left, visible or not.
  {
    ASSERT_OK_AND_ASSIGN(auto abandoned, io_->OpenForWrite(root_ + "/abandoned", false));
    ASSERT_OK(abandoned->Append(content));
    EXPECT_EQ(PendingUploads(), 1);
  }
  EXPECT_EQ(PendingUploads(), 0);
  EXPECT_FALSE(*io_->Exists(root_ + "/abandoned"));

  // A conditional multipart create loses to an object created meanwhile, and aborts.
  ASSERT_OK_AND_ASSIGN(auto late, io_->OpenForWrite(root_ + "/raced", false));
  ASSERT_OK(late->Append(content));
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/raced", "winner", false));
  EXPECT_TRUE(test::HasError(late->Close(), StatusCode::kAlreadyExists,
                             {root_ + "/raced: create: File exists", "412"}));
  EXPECT_EQ(*io_->ReadFile(root_ + "/raced"), "winner");
  EXPECT_EQ(PendingUploads(), 0);
}

TEST_F(S3FileIOTest, ConditionalCreateClaimsANameOnce) {
  const std::string path = root_ + "/snapshot/snapshot-1";
  ASSERT_OK(io_->WriteFileAtomic(path, "first", /*overwrite=*/false));
  EXPECT_TRUE(test::HasError(io_->WriteFileAtomic(path, "second", /*overwrite=*/false),
                             StatusCode::kAlreadyExists,
                             {path, "File exists", "HTTP 412", "bucket 'sluice'"}));
  EXPECT_EQ(*io_->ReadFile(path), "first");
  EXPECT_TRUE(test::HasError(io_->OpenForWrite(path, /*overwrite=*/false),
                             StatusCode::kAlreadyExists, {path + ": create: File exists"}));
  ASSERT_OK(io_->WriteFileAtomic(path, "third", /*overwrite=*/true));
  EXPECT_EQ(*io_->ReadFile(path), "third");
  // A small writer opened before the name was taken loses at Close.
  ASSERT_OK_AND_ASSIGN(auto late, io_->OpenForWrite(root_ + "/snapshot/snapshot-2", false));
  ASSERT_OK(late->Append("late"));
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/snapshot/snapshot-2", "early", false));
  EXPECT_TRUE(test::HasError(late->Close(), StatusCode::kAlreadyExists, {"File exists"}));
  EXPECT_EQ(*io_->ReadFile(root_ + "/snapshot/snapshot-2"), "early");
}

TEST_F(S3FileIOTest, RacingCommittersExactlyOneWinsEachSnapshot) {
  constexpr int kThreads = 6;
  constexpr int kRounds = 5;
  for (int round = 0; round < kRounds; ++round) {
    const std::string path = root_ + "/snapshot-" + std::to_string(round);
    std::atomic<int> winners{0};
    std::atomic<int> losers{0};
    std::vector<std::string> errors(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        Status st = io_->WriteFileAtomic(path, "committer " + std::to_string(t), false);
        if (st.ok()) {
          ++winners;
        } else if (st.IsAlreadyExists()) {
          ++losers;
        } else {
          errors[t] = st.ToString();
        }
      });
    }
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors) EXPECT_EQ(error, "");
    EXPECT_EQ(winners, 1) << "round " << round;
    EXPECT_EQ(losers, kThreads - 1) << "round " << round;
    EXPECT_TRUE(io_->ReadFile(path)->starts_with("committer "));
  }
}

TEST_F(S3FileIOTest, RetriedCreateTellsItsOwnEarlierSuccessFromAnothers) {
  test::FaultProxy proxy(EndpointPort());
  ASSERT_NE(proxy.endpoint(), "");
  ASSERT_OK_AND_ASSIGN(auto io, MakeS3FileIO(TestOptions(proxy.endpoint())));
  // The first PUT creates the object but its answer is lost; the retry gets 412 for our own
  // object, which counts as done.
  proxy.DropAnswerOfNext(1);
  ASSERT_OK(io->WriteFileAtomic(root_ + "/snapshot-1", "mine", false));
  EXPECT_EQ(*io_->ReadFile(root_ + "/snapshot-1"), "mine");
  EXPECT_GE(proxy.requests(), 3) << "the PUT, its retry and the HEAD that checks whose it is";
  // Someone else's object under the name: the same sequence is a lost race.
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/snapshot-2", "theirs", false));
  proxy.DropAnswerOfNext(1);
  EXPECT_TRUE(test::HasError(io->WriteFileAtomic(root_ + "/snapshot-2", "mine", false),
                             StatusCode::kAlreadyExists, {"File exists"}));
  EXPECT_EQ(*io_->ReadFile(root_ + "/snapshot-2"), "theirs");

  // The same for a multipart upload's Complete.
  const std::string content = Pattern((5 << 20) + 10);
  ASSERT_OK_AND_ASSIGN(auto out, io->OpenForWrite(root_ + "/big", false));
  ASSERT_OK(out->Append(content));
  proxy.DropAnswerOfNext(1);
  ASSERT_OK(out->Close());
  EXPECT_TRUE(*io_->ReadFile(root_ + "/big") == content);
  EXPECT_EQ(PendingUploads(), 0);
}

TEST_F(S3FileIOTest, ThrottlingIsRetriedWithBackoffThenReported) {
  test::FaultProxy proxy(EndpointPort());
  ASSERT_NE(proxy.endpoint(), "");
  ASSERT_OK_AND_ASSIGN(auto io, MakeS3FileIO(TestOptions(proxy.endpoint())));
  proxy.FailNext(4);
  ASSERT_OK(io->WriteFileAtomic(root_ + "/f", "data", false));
  EXPECT_EQ(proxy.requests(), 5);
  EXPECT_EQ(*io_->ReadFile(root_ + "/f"), "data");

  // A read whose answer is lost (a reset connection) is sent again.
  proxy.DropAnswerOfNext(1);
  EXPECT_EQ(*io->ReadFile(root_ + "/f"), "data");

  S3Options few = TestOptions(proxy.endpoint());
  few.max_attempts = 2;
  few.request_timeout_ms = 300;
  ASSERT_OK_AND_ASSIGN(auto impatient, MakeS3FileIO(few));
  proxy.FailNext(2);
  EXPECT_TRUE(test::HasError(
      impatient->ReadFile(root_ + "/f"), StatusCode::kIOError,
      {root_ + "/f: open", "HTTP 503 SlowDown", "bucket 'sluice'", "after 2 attempts"}));
  // A server that does not answer: the request times out, is retried, then reported.
  proxy.StallNext(2, 600);
  EXPECT_TRUE(test::HasError(impatient->ReadFile(root_ + "/f"), StatusCode::kIOError,
                             {"GET bucket 'sluice'", "Timeout", "after 2 attempts"}));
}

TEST_F(S3FileIOTest, ListDirReadsEveryPageFilesAndDirectories) {
  // 7 keys a page (TestOptions): 20 files and 3 directories take several pages.
  std::vector<std::string> expected;
  for (int i = 0; i < 20; ++i) {
    const std::string name = "f" + std::string(i < 10 ? "0" : "") + std::to_string(i);
    ASSERT_OK(io_->WriteFileAtomic(root_ + "/dir/" + name, std::string(i, 'x'), false));
    expected.push_back(name);
  }
  for (const char* sub : {"a-dir", "m-dir", "z-dir"}) {
    ASSERT_OK(io_->WriteFileAtomic(root_ + "/dir/" + sub + "/x", "x", false));
    expected.push_back(std::string(sub) + "/");
  }
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/dir-sibling", "x", false));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Names(root_ + "/dir"), expected);
  ASSERT_OK_AND_ASSIGN(auto listed, io_->ListDir(root_ + "/dir/"));
  ASSERT_EQ(listed.size(), 23u);
  EXPECT_EQ(listed[0].path, root_ + "/dir/a-dir");
  EXPECT_TRUE(listed[0].is_dir);
  EXPECT_EQ(listed[1].path, root_ + "/dir/f00");
  EXPECT_EQ(listed[5].size, 4);
  EXPECT_GT(listed[5].modification_time_ms, 0);
  EXPECT_EQ(Names(root_), (std::vector<std::string>{"dir/", "dir-sibling"}));
  EXPECT_TRUE(test::HasError(io_->ListDir(root_ + "/nodir"), StatusCode::kNotFound,
                             {root_ + "/nodir: list", "bucket 'sluice'"}));
  EXPECT_OK(io_->SyncDir(root_ + "/dir"));
}

TEST_F(S3FileIOTest, MkDirsMakesAnEmptyDirectoryThatIsListed) {
  // A new database of a catalog is an empty directory: it must exist and be listed.
  ASSERT_OK(io_->MkDirs(root_ + "/db.db"));
  ASSERT_OK(io_->MkDirs(root_ + "/db.db")) << "existing directories are fine";
  EXPECT_TRUE(*io_->Exists(root_ + "/db.db"));
  EXPECT_TRUE(io_->GetStatus(root_ + "/db.db")->is_dir);
  EXPECT_EQ(Names(root_ + "/db.db"), std::vector<std::string>{});
  EXPECT_EQ(Names(root_), std::vector<std::string>{"db.db/"});
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/db.db/t/schema/schema-0", "{}", false));
  EXPECT_EQ(Names(root_ + "/db.db"), std::vector<std::string>{"t/"});
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/file", "x", false));
  EXPECT_TRUE(test::HasError(io_->MkDirs(root_ + "/file"), StatusCode::kAlreadyExists,
                             {root_ + "/file: mkdir: not a directory"}));
  ASSERT_OK(io_->MkDirs(root_ + "/empty"));
  ASSERT_OK(io_->Delete(root_ + "/empty", /*recursive=*/false));
  EXPECT_FALSE(*io_->Exists(root_ + "/empty"));
  ASSERT_OK(io_->Delete(root_ + "/db.db", /*recursive=*/true));
  EXPECT_EQ(Names(root_), std::vector<std::string>{"file"});
}

TEST_F(S3FileIOTest, KeysWithSpecialCharactersAndEmptyFiles) {
  // Partition directories hold '='; names may hold spaces, '+', '%', '&' and non-ASCII.
  const std::string dir = root_ + "/dt=2026-12-07/hour=1";
  const std::string name = "a b+c%20&d=\xC3\xA9.parquet";
  ASSERT_OK(io_->WriteFileAtomic(dir + "/" + name, "content", false));
  EXPECT_EQ(*io_->ReadFile(dir + "/" + name), "content");
  EXPECT_EQ(Names(dir), std::vector<std::string>{name});
  EXPECT_EQ(Names(root_), std::vector<std::string>{"dt=2026-12-07/"});
  ASSERT_OK(io_->Rename(dir + "/" + name, dir + "/" + name + ".moved"));
  EXPECT_EQ(Names(dir), std::vector<std::string>{name + ".moved"});
  ASSERT_OK(io_->Delete(root_ + "/dt=2026-12-07", /*recursive=*/true));
  EXPECT_FALSE(*io_->Exists(dir));

  ASSERT_OK(Write(root_ + "/empty", ""));
  EXPECT_EQ(*io_->ReadFile(root_ + "/empty"), "");
  ASSERT_OK_AND_ASSIGN(auto file, io_->OpenForRead(root_ + "/empty"));
  EXPECT_EQ(file->size(), 0);
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/empty2", "", false));
  EXPECT_EQ(io_->GetStatus(root_ + "/empty2")->size, 0);
}

TEST_F(S3FileIOTest, DeleteFilesAndDirectories) {
  for (int i = 0; i < 17; ++i) {
    ASSERT_OK(io_->WriteFileAtomic(root_ + "/d/f" + std::to_string(i), "x", false));
  }
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/d/sub/deep", "x", false));
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/d-other", "x", false));
  EXPECT_TRUE(test::HasError(io_->Delete(root_ + "/d", /*recursive=*/false), StatusCode::kIOError,
                             {root_ + "/d: delete: Directory not empty"}));
  ASSERT_OK(io_->Delete(root_ + "/d/f0", /*recursive=*/false));
  EXPECT_FALSE(*io_->Exists(root_ + "/d/f0"));
  ASSERT_OK(io_->Delete(root_ + "/d", /*recursive=*/true));
  EXPECT_FALSE(*io_->Exists(root_ + "/d"));
  EXPECT_FALSE(*io_->Exists(root_ + "/d/sub/deep"));
  EXPECT_TRUE(*io_->Exists(root_ + "/d-other")) << "a sibling sharing the name's prefix";
  EXPECT_OK(io_->Delete(root_ + "/missing", false));
  EXPECT_OK(io_->Delete(root_ + "/missing", true));
}

TEST_F(S3FileIOTest, RenamesCopyThenDelete) {
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/from", "data", false));
  ASSERT_OK(io_->RenameNoReplace(root_ + "/from", root_ + "/to"));
  EXPECT_FALSE(*io_->Exists(root_ + "/from"));
  EXPECT_EQ(*io_->ReadFile(root_ + "/to"), "data");
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/other", "other", false));
  EXPECT_TRUE(test::HasError(io_->RenameNoReplace(root_ + "/other", root_ + "/to"),
                             StatusCode::kAlreadyExists, {root_ + "/to", "rename", "File exists"}));
  ASSERT_OK(io_->Rename(root_ + "/other", root_ + "/to"));
  EXPECT_EQ(*io_->ReadFile(root_ + "/to"), "other");
  EXPECT_TRUE(test::HasError(io_->Rename(root_ + "/gone", root_ + "/x"), StatusCode::kNotFound,
                             {"/gone", "rename"}));
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/d1/sub/f", "f", false));
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/d1/g", "g", false));
  ASSERT_OK(io_->RenameNoReplace(root_ + "/d1", root_ + "/d2"));
  EXPECT_EQ(*io_->ReadFile(root_ + "/d2/sub/f"), "f");
  EXPECT_EQ(*io_->ReadFile(root_ + "/d2/g"), "g");
  EXPECT_FALSE(*io_->Exists(root_ + "/d1"));
}

TEST_F(S3FileIOTest, ErrorsNameBucketKeyAndStatusButNeverTheSecret) {
  S3Options wrong = TestOptions();
  wrong.secret_key = "WRONG-SECRET-never-printed";
  wrong.max_attempts = 1;
  ASSERT_OK_AND_ASSIGN(auto io, MakeS3FileIO(wrong));
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/f", "x", false));
  for (const Status& st :
       {io->ReadFile(root_ + "/f").status(), io->WriteFileAtomic(root_ + "/g", "x", false),
        io->ListDir(root_).status(), io->OpenForRead(root_ + "/f").status()}) {
    EXPECT_TRUE(test::HasError(st, StatusCode::kIOError, {"HTTP 403", "bucket 'sluice'"}));
    const std::string text = st.ToString();
    EXPECT_EQ(text.find("WRONG-SECRET"), std::string::npos) << text;
    EXPECT_EQ(text.find("Signature="), std::string::npos) << text;
    EXPECT_EQ(text.find(kSecretKey), std::string::npos) << text;
  }
  EXPECT_TRUE(test::HasError(io->ReadFile(root_ + "/f"), StatusCode::kIOError,
                             {"SignatureDoesNotMatch", "key '" + root_.substr(12) + "/f'"}));
  EXPECT_TRUE(test::HasError(io_->ReadFile("s3://no-such-bucket/k"), StatusCode::kNotFound,
                             {"NoSuchBucket", "bucket 'no-such-bucket'"}));
  EXPECT_FALSE(*io_->Exists("s3://no-such-bucket/k"));
  EXPECT_FALSE(*io_->Exists("s3://no-such-bucket"));
  EXPECT_TRUE(*io_->Exists(std::string("s3://") + kBucket));

  // Nothing listens: the connection errors are retried, then reported with the attempts.
  S3Options closed = TestOptions("http://127.0.0.1:1");
  closed.max_attempts = 2;
  ASSERT_OK_AND_ASSIGN(auto unreachable, MakeS3FileIO(closed));
  EXPECT_TRUE(test::HasError(unreachable->ReadFile("s3://sluice/k"), StatusCode::kIOError,
                             {"GET bucket 'sluice' key 'k'", "after 2 attempts"}));
  EXPECT_TRUE(test::HasError(MakeS3FileIO(TestOptions("http://host/path")),
                             StatusCode::kInvalidArgument, {"s3.endpoint"}));
}

std::string ReadBytes(const RandomAccessFile& file, int64_t offset, int64_t n) {
  std::string out(static_cast<size_t>(n), '\0');
  Status st = file.ReadAt(offset, n, reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_OK(st);
  return out;
}

TEST_F(S3FileIOTest, FooterAndMagicReadsCostOneRequestEach) {
  const std::string content = Pattern(3 << 20);
  ASSERT_OK(Write(root_ + "/big", content));
  ASSERT_OK(Write(root_ + "/small", content.substr(0, 300000)));
  test::FaultProxy proxy(EndpointPort());
  ASSERT_NE(proxy.endpoint(), "");
  ASSERT_OK_AND_ASSIGN(auto io, MakeS3FileIO(TestOptions(proxy.endpoint())));

  // A size the caller knows: no HEAD. A Parquet open's reads (magic, footer length, footer)
  // are one request for the head and one for the tail.
  ASSERT_OK_AND_ASSIGN(auto big, io->OpenForReadWithSize(root_ + "/big", 3 << 20));
  EXPECT_EQ(proxy.requests(), 0);
  const int64_t size = big->size();
  EXPECT_EQ(ReadBytes(*big, 0, 4), content.substr(0, 4));
  EXPECT_EQ(ReadBytes(*big, size - 8, 8), content.substr(size - 8));
  EXPECT_EQ(ReadBytes(*big, size - 8 - 40000, 40000), content.substr(size - 8 - 40000, 40000));
  EXPECT_EQ(ReadBytes(*big, 0, 4), content.substr(0, 4));
  EXPECT_EQ(proxy.requests(), 2);
  // A read outside both windows is one ranged GET of its own.
  EXPECT_EQ(ReadBytes(*big, 1 << 20, 100000), content.substr(1 << 20, 100000));
  EXPECT_EQ(proxy.requests(), 3);

  // A small file is fetched whole by its first read.
  ASSERT_OK_AND_ASSIGN(auto small, io->OpenForReadWithSize(root_ + "/small", 300000));
  EXPECT_EQ(ReadBytes(*small, 0, 4), content.substr(0, 4));
  EXPECT_EQ(ReadBytes(*small, 123456, 50000), content.substr(123456, 50000));
  EXPECT_EQ(ReadBytes(*small, 299992, 8), content.substr(299992, 8));
  EXPECT_EQ(proxy.requests(), 4);

  // OpenForRead asks for the size (and the ETag its reads are conditional on) with one GET of
  // the first 1 MiB: a small file comes whole with it.
  ASSERT_OK_AND_ASSIGN(auto opened, io->OpenForRead(root_ + "/small"));
  EXPECT_EQ(opened->size(), 300000);
  EXPECT_EQ(ReadBytes(*opened, 299000, 1000), content.substr(299000, 1000));
  ASSERT_OK_AND_ASSIGN(auto opened_big, io->OpenForRead(root_ + "/big"));
  EXPECT_EQ(opened_big->size(), 3 << 20);
  EXPECT_EQ(ReadBytes(*opened_big, 1000, 1000), content.substr(1000, 1000));
  EXPECT_EQ(proxy.requests(), 6);
  // An empty object has no first byte to range over: its size comes from a HEAD.
  ASSERT_OK(Write(root_ + "/empty", ""));
  ASSERT_OK_AND_ASSIGN(auto empty, io->OpenForRead(root_ + "/empty"));
  EXPECT_EQ(empty->size(), 0);

  // A missing file opened with a size fails at its first read, naming the key.
  ASSERT_OK_AND_ASSIGN(auto missing, io->OpenForReadWithSize(root_ + "/missing", 5000000));
  uint8_t byte;
  EXPECT_TRUE(test::HasError(missing->ReadAt(0, 1, &byte), StatusCode::kNotFound, {"missing"}));
}

TEST_F(S3FileIOTest, PrefetchCoalescesRangesAndServesTheReadsInside) {
  const std::string content = Pattern(24 << 20);
  ASSERT_OK(Write(root_ + "/f", content));
  test::FaultProxy proxy(EndpointPort());
  ASSERT_NE(proxy.endpoint(), "");
  ASSERT_OK_AND_ASSIGN(auto io, MakeS3FileIO(TestOptions(proxy.endpoint())));
  ASSERT_OK_AND_ASSIGN(auto file, io->OpenForReadWithSize(root_ + "/f", 24 << 20));
  const int64_t mib = 1 << 20;
  // Two column chunks 512 KiB apart (one request), one 4 MiB further on (another), and a
  // 12 MiB one (two requests of at most 8 MiB).
  file->Prefetch({{1 * mib, mib}, {2 * mib + mib / 2, mib}, {8 * mib, mib}, {10 * mib, 12 * mib}});
  EXPECT_EQ(ReadBytes(*file, 1 * mib + 5, 1000), content.substr(1 * mib + 5, 1000));
  EXPECT_EQ(ReadBytes(*file, 2 * mib + mib / 2, mib), content.substr(2 * mib + mib / 2, mib));
  EXPECT_EQ(ReadBytes(*file, 8 * mib, mib), content.substr(8 * mib, mib));
  // Across the two requests of the large chunk.
  EXPECT_EQ(ReadBytes(*file, 10 * mib, 12 * mib), content.substr(10 * mib, 12 * mib));
  EXPECT_EQ(proxy.requests(), 4);

  // The data of the last two calls is kept; an older one's is dropped.
  file->Prefetch({{23 * mib, mib / 2}});
  file->Prefetch({{23 * mib + mib / 2, mib / 2}});
  EXPECT_EQ(ReadBytes(*file, 23 * mib, mib), content.substr(23 * mib, mib));
  EXPECT_EQ(proxy.requests(), 6);
  EXPECT_EQ(ReadBytes(*file, 8 * mib, 100), content.substr(8 * mib, 100));
  EXPECT_EQ(proxy.requests(), 7);
  // Ranges already held are not fetched again; ranges past the end are clipped.
  file->Prefetch({{23 * mib, mib}, {24 * mib - 10, 1000}});
  EXPECT_EQ(proxy.requests(), 7);

  // A failed prefetch is reported by the read that needs it.
  ASSERT_OK_AND_ASSIGN(auto missing, io->OpenForReadWithSize(root_ + "/gone", 24 << 20));
  missing->Prefetch({{mib, mib}});
  std::string out(10, '\0');
  EXPECT_TRUE(test::HasError(missing->ReadAt(mib, 10, reinterpret_cast<uint8_t*>(out.data())),
                             StatusCode::kNotFound, {"gone"}));
}

TEST_F(S3FileIOTest, ACacheDirServesImmutableFilesAfterTheirFirstRead) {
  const std::string manifest = root_ + "/t/manifest/manifest-1";
  const std::string content = Pattern(200000);
  ASSERT_OK(Write(manifest, content));
  ASSERT_OK(Write(root_ + "/t/snapshot/LATEST", "1"));
  test::FaultProxy proxy(EndpointPort());
  ASSERT_NE(proxy.endpoint(), "");
  test::TempDir dir;
  const std::map<std::string, std::string> options = {{"s3.endpoint", proxy.endpoint()},
                                                      {"s3.access-key", kAccessKey},
                                                      {"s3.secret-key", kSecretKey},
                                                      {"s3.path.style.access", "true"},
                                                      {"cache.dir", dir.path()}};
  ASSERT_OK_AND_ASSIGN(auto io, FileIOForPath(root_, options));
  ASSERT_OK_AND_ASSIGN(auto file, io->OpenForRead(manifest));
  EXPECT_EQ(ReadBytes(*file, 0, file->size()), content);
  EXPECT_EQ(proxy.requests(), 1);
  // Again, and from another FileIO (another process) on the same directory: the local copy.
  ASSERT_OK_AND_ASSIGN(auto again, io->OpenForRead(manifest));
  EXPECT_EQ(ReadBytes(*again, 0, again->size()), content);
  ASSERT_OK_AND_ASSIGN(auto other_io, FileIOForPath(root_, options));
  EXPECT_EQ(*other_io->ReadFile(manifest), content);
  EXPECT_EQ(proxy.requests(), 1);
  // A snapshot hint is read from the store every time.
  EXPECT_EQ(*io->ReadFile(root_ + "/t/snapshot/LATEST"), "1");
  ASSERT_OK(Write(root_ + "/t/snapshot/LATEST", "2", /*overwrite=*/true));
  EXPECT_EQ(*io->ReadFile(root_ + "/t/snapshot/LATEST"), "2");
  EXPECT_EQ(proxy.requests(), 3);
}

}  // namespace
}  // namespace sluice
