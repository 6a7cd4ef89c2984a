// Writing objects: a whole object in one PUT (S3PutObject) and S3WritableFile, which buffers
// and switches to a multipart upload for large files. Both create the object only at the end
// (the PUT, or CompleteMultipartUpload), so no partial object is ever visible: an upload that
// fails or is abandoned is aborted.
//
// Exactly-once conditional creates. With !overwrite the final request carries
// "If-None-Match: *", and S3 answers 412 when the key exists: AlreadyExists, the lost race of a
// commit. A request retried after an attempt whose answer was lost (a timeout, a reset, a 500)
// may see 412 because that attempt did create the object. To tell that from someone else's
// object, every object is written with a random x-amz-meta-sluice-write-id; on a 412 (or a
// NoSuchUpload from a retried Complete) after such an attempt, a HEAD compares the object's id
// with ours: ours means success, anything else AlreadyExists. Content comparison would not do:
// two committers can write equal bytes.
//
// Thread safety: S3PutObject is thread-safe; an S3WritableFile is not.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/fs/s3/s3_client.h"
#include "sluice/fs/s3/s3_path.h"

namespace sluice {

// Creates (or, when `overwrite`, replaces) the object at `path` with `content` in one PUT.
Status S3PutObject(const S3Client& client, const S3Path& path, std::string_view content,
                   bool overwrite);

class S3WritableFile final : public WritableFile {
 public:
  S3WritableFile(std::shared_ptr<const S3Client> client, S3Path path, bool overwrite);
  // Aborts the multipart upload of a file never closed: nothing becomes visible.
  ~S3WritableFile() override;

  const std::string& path() const override { return display_path_; }
  int64_t bytes_written() const override { return written_; }
  // Buffers; uploads a part once the buffer holds S3Options::multipart_size bytes.
  Status Append(std::string_view data) override;
  // Creates the object (AlreadyExists when !overwrite and it exists). After an error the
  // object does not exist (or is the one that was there), and the upload is aborted.
  Status Close() override;

 private:
  Status StartUpload();
  Status UploadPart();
  Status CompleteUpload();
  void AbortUpload();
  // Records the first error (sticky) and aborts the upload.
  Status Fail(Status status);

  std::shared_ptr<const S3Client> client_;
  S3Path path_;
  std::string display_path_;
  bool overwrite_;
  std::string write_id_;
  std::string buffer_;
  int64_t written_ = 0;
  std::string upload_id_;
  std::vector<std::string> part_etags_;
  bool closed_ = false;
  Status error_;
};

}  // namespace sluice
