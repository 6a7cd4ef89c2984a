#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

void ResizeScratch(Buffer* b, size_t n) {
  b->Reserve(n + 1);
  b->Resize(n);
}

int64_t CountValid(const uint8_t* valid, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += valid[i];
  return c;
}

Status SeekRaw(const DecodedStream& stream, const std::vector<uint64_t>& positions, size_t* index,
               size_t* pos) {
  SLUICE_ASSIGN_OR_RETURN(uint64_t p, stream.ResolvePosition(positions, index));
  *pos = p;
  return Status::OK();
}

Status NextPosition(const std::vector<uint64_t>& positions, size_t* index, uint64_t* v) {
  if (*index >= positions.size()) return Status::Corruption("row index: too few positions");
  *v = positions[(*index)++];
  return Status::OK();
}

Status SeekBoolRle(BooleanRleDecoder* decoder, const DecodedStream& stream,
                   const std::vector<uint64_t>& positions, size_t* index) {
  SLUICE_ASSIGN_OR_RETURN(uint64_t p, stream.ResolvePosition(positions, index));
  uint64_t bytes, bits;
  SLUICE_RETURN_NOT_OK(NextPosition(positions, index, &bytes));
  SLUICE_RETURN_NOT_OK(NextPosition(positions, index, &bits));
  return decoder->Seek(p, bytes, bits);
}

bool IsV2(EncodingKind k) {
  return k == EncodingKind::kDirectV2 || k == EncodingKind::kDictionaryV2 ||
         k == EncodingKind::kDecimal64;
}

}  // namespace sluice::orc
