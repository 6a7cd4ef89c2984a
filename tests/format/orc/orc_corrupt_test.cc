// Bad input: each corruption gives a Status naming the file, stripe and column, never a crash.
// Files are assembled by hand (uncompressed, one stripe) so that each test breaks one thing.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sluice/format/orc/orc_metadata.h"
#include "sluice/format/orc/orc_reader.h"
#include "sluice/fs/file_io.h"
#include "sluice/fs/memory_file.h"
#include "test_util.h"

namespace sluice::orc {
namespace {

struct RawStream {
  StreamKind kind;
  uint32_t column;
  std::string bytes;
  uint64_t claimed_length = UINT64_MAX;  // the length the stripe footer states, if not the size
};

struct FileSpec {
  std::vector<OrcType> types;
  uint64_t rows = 0;
  std::vector<RawStream> streams;
  std::vector<ColumnEncoding> encodings;
};

OrcType Type(OrcTypeKind kind, std::vector<uint32_t> subtypes = {},
             std::vector<std::string> names = {}) {
  OrcType t;
  t.kind = kind;
  t.subtypes = std::move(subtypes);
  t.field_names = std::move(names);
  return t;
}

std::string Build(const FileSpec& spec) {
  std::string file = "ORC";
  StripeFooter sf;
  std::string data;
  for (const RawStream& s : spec.streams) {
    data += s.bytes;
    StreamInfo info;
    info.kind = s.kind;
    info.column = s.column;
    info.length = s.claimed_length == UINT64_MAX ? s.bytes.size() : s.claimed_length;
    sf.streams.push_back(info);
  }
  sf.columns = spec.encodings;
  std::string sf_bytes = SerializeStripeFooter(sf);
  StripeInformation si;
  si.offset = file.size();
  si.index_length = 0;
  si.data_length = data.size();
  si.footer_length = sf_bytes.size();
  si.number_of_rows = spec.rows;
  file += data + sf_bytes;
  Footer footer;
  footer.header_length = 3;
  footer.content_length = file.size() - 3;
  footer.stripes.push_back(si);
  footer.types = spec.types;
  footer.number_of_rows = spec.rows;
  std::string footer_bytes = SerializeFooter(footer);
  PostScript ps;
  ps.footer_length = footer_bytes.size();
  ps.compression = OrcCompression::kNone;
  ps.version = {0, 12};
  ps.writer_version = 6;
  std::string ps_bytes = SerializePostScript(ps);
  file += footer_bytes + ps_bytes;
  file.push_back(static_cast<char>(ps_bytes.size()));
  return file;
}

// struct<a:int> with `rows` rows and the given DATA stream (RLE v2).
FileSpec IntFile(uint64_t rows, std::string data) {
  FileSpec spec;
  spec.types = {Type(OrcTypeKind::kStruct, {1}, {"a"}), Type(OrcTypeKind::kInt)};
  spec.rows = rows;
  spec.streams = {{StreamKind::kData, 1, std::move(data)}};
  spec.encodings = {{EncodingKind::kDirect, 0}, {EncodingKind::kDirectV2, 0}};
  return spec;
}

// struct<s:string> dictionary-encoded.
FileSpec DictFile(uint64_t rows, std::string indexes, std::string lengths, std::string blob,
                  uint32_t dict_size) {
  FileSpec spec;
  spec.types = {Type(OrcTypeKind::kStruct, {1}, {"s"}), Type(OrcTypeKind::kString)};
  spec.rows = rows;
  spec.streams = {{StreamKind::kData, 1, std::move(indexes)},
                  {StreamKind::kLength, 1, std::move(lengths)},
                  {StreamKind::kDictionaryData, 1, std::move(blob)}};
  spec.encodings = {{EncodingKind::kDirect, 0}, {EncodingKind::kDictionaryV2, dict_size}};
  return spec;
}

Status ReadBytes(const std::string& bytes, int64_t* rows = nullptr) {
  auto file = std::make_shared<MemoryRandomAccessFile>("mem.orc", bytes);
  SLUICE_ASSIGN_OR_RETURN(auto reader, OrcReader::Open(file, nullptr, ReaderOptions{}));
  ColumnBatch batch(reader->read_type());
  int64_t total = 0;
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    total += batch.num_rows();
  }
  if (rows != nullptr) *rows = total;
  return Status::OK();
}

void ExpectError(const Status& st, const std::vector<std::string>& fragments) {
  ASSERT_TRUE(test::HasError(st, StatusCode::kCorruption));
  for (const std::string& f : fragments) {
    EXPECT_NE(st.message().find(f), std::string::npos)
        << "missing '" << f << "' in " << st.ToString();
  }
}

// Short-repeat run of RLE v2: `count` (3..10) copies of a one-byte zigzag value.
std::string ShortRepeat(int count, uint8_t zigzag) {
  return std::string{static_cast<char>(count - 3), static_cast<char>(zigzag)};
}

TEST(OrcCorruptTest, HandBuiltFileReads) {
  int64_t rows = 0;
  ASSERT_OK(ReadBytes(Build(IntFile(5, ShortRepeat(5, 14))), &rows));
  EXPECT_EQ(rows, 5);
  // Dictionary {"ab", "cd"}, indexes [0, 1, 0] (RLE v2 direct, 1 bit), lengths [2, 2].
  Status st = ReadBytes(
      Build(DictFile(3, std::string("\x40\x02\x40", 3), std::string("\x46\x01\x22", 3), "abcd", 2)),
      &rows);
  ASSERT_OK(st);
  EXPECT_EQ(rows, 3);
}

TEST(OrcCorruptTest, TruncatedPostscript) {
  ExpectError(ReadBytes(std::string("ORC\xff", 4)),
              {"mem.orc", "postscript length 255 does not fit"});
  std::string good = Build(IntFile(5, ShortRepeat(5, 14)));
  // Cut the file inside the postscript: the last byte now claims a length that does not fit or
  // points at bytes that do not parse.
  ExpectError(ReadBytes(good.substr(0, good.size() - 3)), {"mem.orc"});
  ExpectError(ReadBytes(""), {"mem.orc", "too small"});
}

TEST(OrcCorruptTest, StreamLengthPastTheFile) {
  FileSpec spec = IntFile(5, ShortRepeat(5, 14));
  spec.streams[0].claimed_length = 1000;
  ExpectError(ReadBytes(Build(spec)),
              {"mem.orc", "stripe 0", "DATA stream of column 1", "extends past the stripe end"});
}

TEST(OrcCorruptTest, RleRunPastTheStream) {
  // Byte RLE literal group claiming 100 values, 3 present.
  FileSpec spec;
  spec.types = {Type(OrcTypeKind::kStruct, {1}, {"b"}), Type(OrcTypeKind::kByte)};
  spec.rows = 100;
  spec.streams = {{StreamKind::kData, 1, std::string("\x9c\x01\x02\x03", 4)}};
  spec.encodings = {{EncodingKind::kDirect, 0}, {EncodingKind::kDirect, 0}};
  ExpectError(ReadBytes(Build(spec)),
              {"mem.orc", "stripe 0", "column 'b'", "literal group runs past the stream"});
  // Integer RLE v2 direct run of 512 64-bit values in 4 bytes.
  ExpectError(ReadBytes(Build(IntFile(512, std::string("\x7f\xff\x00\x00", 4)))),
              {"mem.orc", "stripe 0", "column 'a'", "run past the stream"});
  // Fewer values than rows.
  ExpectError(ReadBytes(Build(IntFile(6, ShortRepeat(5, 14)))),
              {"mem.orc", "column 'a'", "stream ends before the values do"});
}

TEST(OrcCorruptTest, DictionaryIndexOutOfRange) {
  // Dictionary {"ab", "cd"}; indexes [5, 5, 5].
  FileSpec spec = DictFile(3, ShortRepeat(3, 5), std::string("\x46\x01\x22", 3), "abcd", 2);
  ExpectError(ReadBytes(Build(spec)),
              {"mem.orc", "stripe 0", "column 's'", "dictionary index 5 out of range"});
}

TEST(OrcCorruptTest, LyingProtobufLength) {
  std::string good = Build(IntFile(5, ShortRepeat(5, 14)));
  // The footer's first length-delimited field is a stripe (field 3); make its length huge.
  size_t ps_len = static_cast<uint8_t>(good.back());
  auto parsed = ParsePostScript(std::string_view(good).substr(good.size() - 1 - ps_len, ps_len));
  ASSERT_OK(parsed);
  size_t footer_start = good.size() - 1 - ps_len - parsed->footer_length;
  std::string bad = good;
  // Footer: 08 03 (headerLength) 10 xx (contentLength) 1a LEN ...
  size_t pos = footer_start;
  while (static_cast<uint8_t>(bad[pos]) != 0x1a) ++pos;
  bad[pos + 1] = 0x7f;
  ExpectError(ReadBytes(bad), {"mem.orc", "footer", "protobuf: length 127 exceeds"});
}

TEST(OrcCorruptTest, OrcProjectCorruptFiles) {
  std::string dir = test::ExternalDir() + "/orc-examples/corrupt/";
  struct Case {
    const char* file;
    std::vector<std::string> fragments;
  };
  std::vector<Case> cases = {
      {"missing_blob_stream_in_string_dict.orc", {"stripe 0", "DICTIONARY_DATA"}},
      {"missing_length_stream_in_string_dict.orc", {"stripe 0", "column 11 SECONDARY stream"}},
      {"negative_dict_entry_lengths.orc", {"stripe 0", "has length -"}},
      {"stripe_footer_bad_column_encodings.orc", {"stripe 0", "stripe footer"}},
  };
  for (const Case& c : cases) {
    auto file = LocalFileIO()->OpenForRead(dir + c.file);
    ASSERT_OK(file) << c.file;
    auto reader = OrcReader::Open(std::shared_ptr<RandomAccessFile>(std::move(*file)), nullptr, {});
    Status st = reader.status();
    if (reader.ok()) {
      ColumnBatch batch((*reader)->read_type());
      while (true) {
        auto more = (*reader)->Next(&batch);
        if (!more.ok()) {
          st = more.status();
          break;
        }
        if (!*more) break;
      }
    }
    std::vector<std::string> fragments = c.fragments;
    fragments.push_back(c.file);
    ExpectError(st, fragments);
  }
}

}  // namespace
}  // namespace sluice::orc
