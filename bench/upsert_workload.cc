#include "upsert_workload.h"

#include <cstring>
#include <random>
#include <string>

#include "bench_common.h"

namespace sluice::bench {

namespace {

// splitmix64's finalizer: a bijection of uint64, so distinct counters give distinct keys.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

DataField Field(int32_t id, const char* name, DataTypePtr type) {
  return DataField{id, name, std::move(type), std::nullopt, std::nullopt};
}

}  // namespace

std::vector<DataField> UpsertFields() {
  return {Field(0, "k", DataType::BigInt(false)), Field(1, "v1", DataType::Int()),
          Field(2, "v2", DataType::BigInt()),     Field(3, "v3", DataType::Double()),
          Field(4, "v4", DataType::String()),     Field(5, "v5", DataType::Double())};
}

std::vector<std::unique_ptr<ColumnBatch>> MakeUpsertWorkload(int64_t rows, const DataTypePtr& type,
                                                             int64_t* distinct_keys) {
  std::mt19937_64 rng(20261130);
  std::vector<std::unique_ptr<ColumnBatch>> batches;
  int64_t inserted = 0;
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int64_t start = 0; start < rows; start += kBatchRows) {
    const int64_t n = std::min(kBatchRows, rows - start);
    auto batch = std::make_unique<ColumnBatch>(type);
    ColumnVector* k = batch->column(0);
    ColumnVector* v1 = batch->column(1);
    ColumnVector* v2 = batch->column(2);
    ColumnVector* v3 = batch->column(3);
    ColumnVector* v4 = batch->column(4);
    ColumnVector* v5 = batch->column(5);
    for (ColumnVector* c : {k, v1, v2, v3, v5}) c->Resize(n);
    v4->Resize(n);
    int32_t* offsets = v4->offset_data();
    offsets[0] = 0;
    std::string chars;
    for (int64_t i = 0; i < n; ++i) {
      const bool update = inserted > 0 && (rng() & 1) != 0;
      const uint64_t ordinal = update ? rng() % static_cast<uint64_t>(inserted) : inserted++;
      k->data<int64_t>()[i] = static_cast<int64_t>(Mix(ordinal));
      const uint64_t r = rng();
      v1->data<int32_t>()[i] = static_cast<int32_t>(r & 0xFFFFF);
      v2->data<int64_t>()[i] = static_cast<int64_t>(r >> 8);
      v3->data<double>()[i] = static_cast<double>(r % 100000) / 100.0;
      v5->data<double>()[i] = static_cast<double>((r >> 20) % 1000) / 8.0;
      const int len = 8 + static_cast<int>((r >> 40) % 17);
      for (int c = 0; c < len; ++c) chars.push_back(kAlphabet[(r >> (c % 48)) % 36]);
      offsets[i + 1] = static_cast<int32_t>(chars.size());
    }
    v4->values().Resize(chars.size());
    std::memcpy(v4->values().data(), chars.data(), chars.size());
    batch->set_num_rows(n);
    batches.push_back(std::move(batch));
  }
  *distinct_keys = inserted;
  return batches;
}

}  // namespace sluice::bench
