// libFuzzer target: Sluice's snappy decoder against libsnappy. Byte 0 picks the mode:
//   even: the rest is a snappy block; both decoders must agree on whether it is valid, and on
//         its bytes when it is (a declared length over 1 MiB is only checked to fail or pass
//         without a crash);
//   odd:  the rest is data; libsnappy's compression of it must decode back to it.
#include <snappy.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "sluice/format/compression/snappy_decoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 1) {
    std::string block;
    snappy::Compress(rest.data(), rest.size(), &block);
    std::string out(rest.size(), '\0');
    if (!sluice::SnappyDecompress(block, reinterpret_cast<uint8_t*>(out.data()), out.size()).ok() ||
        out != rest) {
      std::abort();
    }
    return 0;
  }
  sluice::Result<size_t> length = sluice::SnappyUncompressedLength(rest);
  size_t theirs_length = 0;
  bool theirs_parsed = snappy::GetUncompressedLength(rest.data(), rest.size(), &theirs_length);
  if (length.ok() != theirs_parsed || (theirs_parsed && *length != theirs_length)) std::abort();
  if (!length.ok() || *length > (size_t{1} << 20)) return 0;
  std::string ours(*length, '\0');
  std::string theirs(*length, '\0');
  bool ours_ok =
      sluice::SnappyDecompress(rest, reinterpret_cast<uint8_t*>(ours.data()), ours.size()).ok();
  bool theirs_ok = snappy::RawUncompress(rest.data(), rest.size(), theirs.data());
  if (ours_ok != theirs_ok || (ours_ok && ours != theirs)) std::abort();
  return 0;
}
