#include "peers_rows.h"

#include <string>
#include <utility>

#include "bench_common.h"

namespace sluice::bench {

std::vector<DataField> PeersFields() {
  std::vector<DataField> fields = {Field(0, "k", DataType::Int(false))};
  for (int i = 1; i <= kPeersValueColumns; ++i) {
    std::string name = "f";
    name += std::to_string(i);
    fields.push_back(Field(i, std::move(name), DataType::String()));
  }
  return fields;
}

uint64_t PeersRows::Draw() {
  state_ += 0x9E3779B97F4A7C15ULL;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void PeersRows::Next(int64_t n, ColumnBatch* batch) {
  static constexpr char kHex[] = "0123456789abcdef";
  batch->Clear();
  ColumnVector* keys = batch->column(0);
  keys->Resize(n);
  int32_t* k = keys->data<int32_t>();
  char text[10];
  for (int64_t i = 0; i < n; ++i) {
    k[i] = static_cast<int32_t>(Draw() >> 33);
    for (int c = 1; c <= kPeersValueColumns; ++c) {
      const uint64_t bits = Draw();
      for (int d = 0; d < 10; ++d) text[d] = kHex[(bits >> (4 * d)) & 15];
      batch->column(c)->AppendBytes(std::string_view(text, sizeof(text)));
    }
  }
  batch->set_num_rows(n);
}

}  // namespace sluice::bench
