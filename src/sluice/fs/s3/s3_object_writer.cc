#include "sluice/fs/s3/s3_object_writer.h"

#include "sluice/base/uuid.h"
#include "sluice/fs/s3/s3_xml.h"

namespace sluice {

namespace {

constexpr const char* kWriteIdHeader = "x-amz-meta-sluice-write-id";

// Whether the object at `path` is the one written with `write_id`.
bool IsOurObject(const S3Client& client, const S3Path& path, const std::string& write_id) {
  S3Request head{"HEAD", path.bucket, path.key, {}, {}, {}};
  Result<S3Response> response = client.Send(head);
  return response.ok() && response->ok() && response->Header(kWriteIdHeader) == write_id;
}

// The Status of a conditional create that found the key taken.
Status Taken(const S3Path& path, const S3Request& request, const S3Response& response) {
  return Status::AlreadyExists(
      S3Client::ErrorStatus(path.ToString() + ": create: File exists", request, response)
          .message());
}

}  // namespace

Status S3PutObject(const S3Client& client, const S3Path& path, std::string_view content,
                   bool overwrite) {
  const std::string write_id = NewUuidV4();
  S3Request put{"PUT", path.bucket, path.key, {}, {{kWriteIdHeader, write_id}}, content};
  if (!overwrite) put.headers.emplace_back("if-none-match", "*");
  SLUICE_ASSIGN_OR_RETURN(S3Response response, client.Send(put));
  if (response.ok()) return Status::OK();
  if (response.status == 412 && !overwrite) {
    if (response.maybe_applied_before && IsOurObject(client, path, write_id)) return Status::OK();
    return Taken(path, put, response);
  }
  return S3Client::ErrorStatus(path.ToString() + ": write", put, response);
}

S3WritableFile::S3WritableFile(std::shared_ptr<const S3Client> client, S3Path path, bool overwrite)
    : client_(std::move(client)),
      path_(std::move(path)),
      display_path_(path_.ToString()),
      overwrite_(overwrite),
      write_id_(NewUuidV4()) {}

S3WritableFile::~S3WritableFile() {
  if (!closed_) AbortUpload();
}

Status S3WritableFile::Append(std::string_view data) {
  if (!error_.ok()) return error_;
  if (closed_) return Status::InvalidArgument(display_path_ + ": append after close");
  buffer_.append(data);
  written_ += static_cast<int64_t>(data.size());
  if (static_cast<int64_t>(buffer_.size()) >= client_->options().multipart_size) {
    if (upload_id_.empty()) {
      if (Status st = StartUpload(); !st.ok()) return Fail(st);
    }
    if (Status st = UploadPart(); !st.ok()) return Fail(st);
  }
  return Status::OK();
}

Status S3WritableFile::Close() {
  if (closed_) return error_;
  closed_ = true;
  if (!error_.ok()) return error_;
  if (upload_id_.empty()) {
    Status st = S3PutObject(*client_, path_, buffer_, overwrite_);
    buffer_.clear();
    buffer_.shrink_to_fit();
    if (!st.ok()) error_ = st;
    return st;
  }
  // The last part may be smaller than the minimum part size; an empty one is not sent.
  if (!buffer_.empty()) {
    if (Status st = UploadPart(); !st.ok()) return Fail(st);
  }
  if (Status st = CompleteUpload(); !st.ok()) return Fail(st);
  return Status::OK();
}

Status S3WritableFile::StartUpload() {
  S3Request create{
      "POST", path_.bucket, path_.key, {{"uploads", ""}}, {{kWriteIdHeader, write_id_}}, {}};
  SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(create));
  if (!response.ok())
    return S3Client::ErrorStatus(display_path_ + ": start upload", create, response);
  upload_id_ = XmlText(response.body, "UploadId");
  if (upload_id_.empty()) {
    return Status::IOError(display_path_ + ": start upload: no UploadId in S3's answer (bucket '" +
                           path_.bucket + "', key '" + path_.key + "')");
  }
  return Status::OK();
}

Status S3WritableFile::UploadPart() {
  const std::string part_number = std::to_string(part_etags_.size() + 1);
  S3Request part{"PUT",     path_.bucket,
                 path_.key, {{"partNumber", part_number}, {"uploadId", upload_id_}},
                 {},        buffer_};
  SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(part));
  if (!response.ok()) {
    return S3Client::ErrorStatus(display_path_ + ": upload part " + part_number, part, response);
  }
  part_etags_.push_back(response.Header("etag"));
  buffer_.clear();
  return Status::OK();
}

Status S3WritableFile::CompleteUpload() {
  std::string body = "<CompleteMultipartUpload>";
  for (size_t i = 0; i < part_etags_.size(); ++i) {
    body += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" +
            XmlEscape(part_etags_[i]) + "</ETag></Part>";
  }
  body += "</CompleteMultipartUpload>";
  S3Request complete{"POST",
                     path_.bucket,
                     path_.key,
                     {{"uploadId", upload_id_}},
                     {{"content-type", "application/xml"}},
                     body};
  if (!overwrite_) complete.headers.emplace_back("if-none-match", "*");
  SLUICE_ASSIGN_OR_RETURN(S3Response response, client_->Send(complete));
  if (response.ok()) {
    upload_id_.clear();
    return Status::OK();
  }
  // A Complete retried after it was applied finds the upload gone (NoSuchUpload) or, when
  // conditional, the key taken (412): whose object it is tells which.
  const bool gone = response.status == 404 || (response.status == 412 && !overwrite_);
  if (gone && response.maybe_applied_before && IsOurObject(*client_, path_, write_id_)) {
    upload_id_.clear();
    return Status::OK();
  }
  if (response.status == 412 && !overwrite_) return Taken(path_, complete, response);
  return S3Client::ErrorStatus(display_path_ + ": complete upload", complete, response);
}

void S3WritableFile::AbortUpload() {
  if (upload_id_.empty()) return;
  S3Request abort{"DELETE", path_.bucket, path_.key, {{"uploadId", upload_id_}}, {}, {}};
  // Best effort: an upload left behind is invisible, and a bucket lifecycle rule can expire it.
  client_->Send(abort).status().IgnoreError();
  upload_id_.clear();
}

Status S3WritableFile::Fail(Status status) {
  if (error_.ok()) error_ = status;
  buffer_.clear();
  buffer_.shrink_to_fit();
  AbortUpload();
  return error_;
}

}  // namespace sluice
