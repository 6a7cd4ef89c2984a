#include "sluice/format/orc/orc_metadata.h"

#include "sluice/format/orc/proto_reader.h"
#include "sluice/format/orc/proto_writer.h"

namespace sluice::orc {

namespace {

// Iterates the fields of one message: `fn(field, wire, reader)` consumes the value of the
// fields it knows and returns false for the others, which are skipped.
template <typename Fn>
Status ForEachField(std::string_view bytes, Fn&& fn) {
  ProtoReader r(bytes);
  while (!r.done()) {
    uint32_t field;
    WireType wire;
    SLUICE_RETURN_NOT_OK(r.NextField(&field, &wire));
    bool handled = false;
    SLUICE_RETURN_NOT_OK(fn(field, wire, r, &handled));
    if (!handled) SLUICE_RETURN_NOT_OK(r.Skip(wire));
  }
  return Status::OK();
}

Status ExpectWire(WireType actual, WireType expected, const char* message, uint32_t field) {
  if (actual == expected) return Status::OK();
  return Status::Corruption(std::string(message) + " field " + std::to_string(field) +
                            ": unexpected wire type " + std::to_string(static_cast<int>(actual)));
}

#define SLUICE_PROTO_VARINT(msg, target)                                   \
  do {                                                                     \
    SLUICE_RETURN_NOT_OK(ExpectWire(wire, WireType::kVarint, msg, field)); \
    uint64_t v_;                                                           \
    SLUICE_RETURN_NOT_OK(r.ReadVarint(&v_));                               \
    target = static_cast<std::remove_reference_t<decltype(target)>>(v_);   \
    *handled = true;                                                       \
  } while (false)

#define SLUICE_PROTO_SIGNED(msg, target)                                   \
  do {                                                                     \
    SLUICE_RETURN_NOT_OK(ExpectWire(wire, WireType::kVarint, msg, field)); \
    int64_t v_;                                                            \
    SLUICE_RETURN_NOT_OK(r.ReadSigned(&v_));                               \
    target = static_cast<decltype(v_)>(v_);                                \
    *handled = true;                                                       \
  } while (false)

#define SLUICE_PROTO_BYTES(msg, view)                                             \
  SLUICE_RETURN_NOT_OK(ExpectWire(wire, WireType::kLengthDelimited, msg, field)); \
  std::string_view view;                                                          \
  SLUICE_RETURN_NOT_OK(r.ReadBytes(&view));                                       \
  *handled = true

Status ParseIntStats(std::string_view b, OrcColumnStatistics* s) {
  return ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
    const char* m = "IntegerStatistics";
    if (field == 1) SLUICE_PROTO_SIGNED(m, s->int_min);
    if (field == 2) SLUICE_PROTO_SIGNED(m, s->int_max);
    if (field == 3) SLUICE_PROTO_SIGNED(m, s->int_sum);
    return Status::OK();
  });
}

Status ParseDoubleStats(std::string_view b, OrcColumnStatistics* s) {
  return ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
    if (field >= 1 && field <= 3) {
      SLUICE_RETURN_NOT_OK(ExpectWire(wire, WireType::kFixed64, "DoubleStatistics", field));
      double d;
      SLUICE_RETURN_NOT_OK(r.ReadDouble(&d));
      (field == 1 ? s->double_min : field == 2 ? s->double_max : s->double_sum) = d;
      *handled = true;
    }
    return Status::OK();
  });
}

Status ParseStringStats(std::string_view b, OrcColumnStatistics* s) {
  return ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
    const char* m = "StringStatistics";
    if (field == 1 || field == 2) {
      SLUICE_PROTO_BYTES(m, v);
      (field == 1 ? s->string_min : s->string_max) = std::string(v);
    }
    if (field == 3) SLUICE_PROTO_SIGNED(m, s->string_sum);
    return Status::OK();
  });
}

Status ParseDecimalStats(std::string_view b, OrcColumnStatistics* s) {
  return ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
    if (field >= 1 && field <= 3) {
      SLUICE_PROTO_BYTES("DecimalStatistics", v);
      (field == 1 ? s->decimal_min : field == 2 ? s->decimal_max : s->decimal_sum) = std::string(v);
    }
    return Status::OK();
  });
}

Status ParseDateStats(std::string_view b, OrcColumnStatistics* s) {
  return ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
    const char* m = "DateStatistics";
    if (field == 1) SLUICE_PROTO_SIGNED(m, s->date_min);
    if (field == 2) SLUICE_PROTO_SIGNED(m, s->date_max);
    return Status::OK();
  });
}

Status ParseTimestampStats(std::string_view b, OrcColumnStatistics* s) {
  return ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
    const char* m = "TimestampStatistics";
    if (field == 1) SLUICE_PROTO_SIGNED(m, s->timestamp_min);
    if (field == 2) SLUICE_PROTO_SIGNED(m, s->timestamp_max);
    if (field == 3) SLUICE_PROTO_SIGNED(m, s->timestamp_min_utc);
    if (field == 4) SLUICE_PROTO_SIGNED(m, s->timestamp_max_utc);
    if (field == 5) SLUICE_PROTO_VARINT(m, s->timestamp_min_nanos);
    if (field == 6) SLUICE_PROTO_VARINT(m, s->timestamp_max_nanos);
    return Status::OK();
  });
}

Result<OrcColumnStatistics> ParseColumnStatistics(std::string_view b) {
  OrcColumnStatistics s;
  bool saw_has_null = false;
  SLUICE_RETURN_NOT_OK(
      ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
        const char* m = "ColumnStatistics";
        switch (field) {
          case 1:
            SLUICE_PROTO_VARINT(m, s.number_of_values);
            break;
          case 2: {
            SLUICE_PROTO_BYTES(m, v);
            return ParseIntStats(v, &s);
          }
          case 3: {
            SLUICE_PROTO_BYTES(m, v);
            return ParseDoubleStats(v, &s);
          }
          case 4: {
            SLUICE_PROTO_BYTES(m, v);
            return ParseStringStats(v, &s);
          }
          case 5: {
            SLUICE_PROTO_BYTES(m, v);
            return ForEachField(v, [&](uint32_t f2, WireType w2, ProtoReader& r2, bool* h2) {
              if (f2 == 1) {
                *h2 = true;
                return r2.ReadPackedVarints(w2, &s.bucket_counts);
              }
              return Status::OK();
            });
          }
          case 6: {
            SLUICE_PROTO_BYTES(m, v);
            return ParseDecimalStats(v, &s);
          }
          case 7: {
            SLUICE_PROTO_BYTES(m, v);
            return ParseDateStats(v, &s);
          }
          case 8: {
            SLUICE_PROTO_BYTES(m, v);
            return ForEachField(v, [&](uint32_t f2, WireType w2, ProtoReader& r2, bool* h2) {
              if (f2 == 1 && w2 == WireType::kVarint) {
                int64_t sum;
                SLUICE_RETURN_NOT_OK(r2.ReadSigned(&sum));
                s.binary_sum = sum;
                *h2 = true;
              }
              return Status::OK();
            });
          }
          case 9: {
            SLUICE_PROTO_BYTES(m, v);
            return ParseTimestampStats(v, &s);
          }
          case 10: {
            uint64_t hn = 0;
            SLUICE_PROTO_VARINT(m, hn);
            s.has_null = hn != 0;
            saw_has_null = true;
            break;
          }
          default:
            break;
        }
        return Status::OK();
      }));
  if (!saw_has_null) s.has_null = true;
  return s;
}

Result<OrcType> ParseType(std::string_view b) {
  OrcType t;
  uint32_t kind = 0;
  SLUICE_RETURN_NOT_OK(
      ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
        const char* m = "Type";
        switch (field) {
          case 1:
            SLUICE_PROTO_VARINT(m, kind);
            break;
          case 2: {
            std::vector<uint64_t> subs;
            SLUICE_RETURN_NOT_OK(r.ReadPackedVarints(wire, &subs));
            *handled = true;
            for (uint64_t s : subs) {
              if (s > UINT32_MAX) return Status::Corruption("Type: subtype id out of range");
              t.subtypes.push_back(static_cast<uint32_t>(s));
            }
            break;
          }
          case 3: {
            SLUICE_PROTO_BYTES(m, v);
            t.field_names.emplace_back(v);
            break;
          }
          case 4:
            SLUICE_PROTO_VARINT(m, t.maximum_length);
            break;
          case 5:
            SLUICE_PROTO_VARINT(m, t.precision);
            break;
          case 6:
            SLUICE_PROTO_VARINT(m, t.scale);
            break;
          case 7: {
            SLUICE_PROTO_BYTES(m, v);
            std::pair<std::string, std::string> kv;
            SLUICE_RETURN_NOT_OK(
                ForEachField(v, [&](uint32_t f2, WireType w2, ProtoReader& r2, bool* h2) {
                  if (f2 == 1 || f2 == 2) {
                    if (w2 != WireType::kLengthDelimited) {
                      return Status::Corruption("StringPair: bad wire type");
                    }
                    *h2 = true;
                    return r2.ReadString(f2 == 1 ? &kv.first : &kv.second);
                  }
                  return Status::OK();
                }));
            t.attributes.push_back(std::move(kv));
            break;
          }
          default:
            break;
        }
        return Status::OK();
      }));
  if (kind > static_cast<uint32_t>(OrcTypeKind::kTimestampInstant)) {
    return Status::Corruption("Type: unknown kind " + std::to_string(kind));
  }
  t.kind = static_cast<OrcTypeKind>(kind);
  return t;
}

Result<StripeInformation> ParseStripeInformation(std::string_view b) {
  StripeInformation s;
  SLUICE_RETURN_NOT_OK(
      ForEachField(b, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
        const char* m = "StripeInformation";
        if (field == 1) SLUICE_PROTO_VARINT(m, s.offset);
        if (field == 2) SLUICE_PROTO_VARINT(m, s.index_length);
        if (field == 3) SLUICE_PROTO_VARINT(m, s.data_length);
        if (field == 4) SLUICE_PROTO_VARINT(m, s.footer_length);
        if (field == 5) SLUICE_PROTO_VARINT(m, s.number_of_rows);
        return Status::OK();
      }));
  return s;
}

void WriteColumnStatistics(ProtoWriter* w, uint32_t field, const OrcColumnStatistics& s) {
  ProtoWriter m;
  if (s.number_of_values) m.Varint(1, *s.number_of_values);
  if (s.int_min || s.int_max || s.int_sum) {
    ProtoWriter i;
    if (s.int_min) i.Signed(1, *s.int_min);
    if (s.int_max) i.Signed(2, *s.int_max);
    if (s.int_sum) i.Signed(3, *s.int_sum);
    m.Bytes(2, i.str());
  }
  if (s.double_min || s.double_max || s.double_sum) {
    ProtoWriter d;
    if (s.double_min) d.Double(1, *s.double_min);
    if (s.double_max) d.Double(2, *s.double_max);
    if (s.double_sum) d.Double(3, *s.double_sum);
    m.Bytes(3, d.str());
  }
  if (s.string_min || s.string_max || s.string_sum) {
    ProtoWriter t;
    if (s.string_min) t.Bytes(1, *s.string_min);
    if (s.string_max) t.Bytes(2, *s.string_max);
    if (s.string_sum) t.Signed(3, *s.string_sum);
    m.Bytes(4, t.str());
  }
  if (!s.bucket_counts.empty()) {
    ProtoWriter b;
    b.PackedVarints(1, s.bucket_counts);
    m.Bytes(5, b.str());
  }
  if (s.decimal_min || s.decimal_max || s.decimal_sum) {
    ProtoWriter d;
    if (s.decimal_min) d.Bytes(1, *s.decimal_min);
    if (s.decimal_max) d.Bytes(2, *s.decimal_max);
    if (s.decimal_sum) d.Bytes(3, *s.decimal_sum);
    m.Bytes(6, d.str());
  }
  if (s.date_min || s.date_max) {
    ProtoWriter d;
    if (s.date_min) d.Signed(1, *s.date_min);
    if (s.date_max) d.Signed(2, *s.date_max);
    m.Bytes(7, d.str());
  }
  if (s.binary_sum) {
    ProtoWriter b;
    b.Signed(1, *s.binary_sum);
    m.Bytes(8, b.str());
  }
  if (s.timestamp_min || s.timestamp_max || s.timestamp_min_utc || s.timestamp_max_utc) {
    ProtoWriter t;
    if (s.timestamp_min) t.Signed(1, *s.timestamp_min);
    if (s.timestamp_max) t.Signed(2, *s.timestamp_max);
    if (s.timestamp_min_utc) t.Signed(3, *s.timestamp_min_utc);
    if (s.timestamp_max_utc) t.Signed(4, *s.timestamp_max_utc);
    if (s.timestamp_min_nanos) t.Varint(5, static_cast<uint64_t>(*s.timestamp_min_nanos));
    if (s.timestamp_max_nanos) t.Varint(6, static_cast<uint64_t>(*s.timestamp_max_nanos));
    m.Bytes(9, t.str());
  }
  m.Varint(10, s.has_null ? 1 : 0);
  w->Bytes(field, m.str());
}

}  // namespace

std::string_view OrcTypeKindName(OrcTypeKind kind) {
  static constexpr std::string_view kNames[] = {"boolean",
                                                "tinyint",
                                                "smallint",
                                                "int",
                                                "bigint",
                                                "float",
                                                "double",
                                                "string",
                                                "binary",
                                                "timestamp",
                                                "array",
                                                "map",
                                                "struct",
                                                "uniontype",
                                                "decimal",
                                                "date",
                                                "varchar",
                                                "char",
                                                "timestamp with local time zone"};
  auto i = static_cast<size_t>(kind);
  return i < std::size(kNames) ? kNames[i] : std::string_view("unknown");
}

const std::string* OrcType::FindAttribute(std::string_view key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

Result<PostScript> ParsePostScript(std::string_view bytes) {
  PostScript ps;
  uint32_t compression = 0;
  SLUICE_RETURN_NOT_OK(
      ForEachField(bytes, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
        const char* m = "PostScript";
        switch (field) {
          case 1:
            SLUICE_PROTO_VARINT(m, ps.footer_length);
            break;
          case 2:
            SLUICE_PROTO_VARINT(m, compression);
            break;
          case 3:
            SLUICE_PROTO_VARINT(m, ps.compression_block_size);
            break;
          case 4:
            *handled = true;
            return r.ReadPackedVarints(wire, &ps.version);
          case 5:
            SLUICE_PROTO_VARINT(m, ps.metadata_length);
            break;
          case 6:
            SLUICE_PROTO_VARINT(m, ps.writer_version);
            break;
          case 8000: {
            SLUICE_PROTO_BYTES(m, v);
            ps.magic = std::string(v);
            break;
          }
          default:
            break;
        }
        return Status::OK();
      }));
  if (compression > static_cast<uint32_t>(OrcCompression::kZstd)) {
    return Status::Corruption("PostScript: unknown compression " + std::to_string(compression));
  }
  ps.compression = static_cast<OrcCompression>(compression);
  return ps;
}

Result<Footer> ParseFooter(std::string_view bytes) {
  Footer f;
  SLUICE_RETURN_NOT_OK(
      ForEachField(bytes, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
        const char* m = "Footer";
        switch (field) {
          case 1:
            SLUICE_PROTO_VARINT(m, f.header_length);
            break;
          case 2:
            SLUICE_PROTO_VARINT(m, f.content_length);
            break;
          case 3: {
            SLUICE_PROTO_BYTES(m, v);
            SLUICE_ASSIGN_OR_RETURN(auto s, ParseStripeInformation(v));
            f.stripes.push_back(s);
            break;
          }
          case 4: {
            SLUICE_PROTO_BYTES(m, v);
            SLUICE_ASSIGN_OR_RETURN(auto t, ParseType(v));
            f.types.push_back(std::move(t));
            break;
          }
          case 5: {
            SLUICE_PROTO_BYTES(m, v);
            UserMetadataItem item;
            SLUICE_RETURN_NOT_OK(
                ForEachField(v, [&](uint32_t f2, WireType w2, ProtoReader& r2, bool* h2) {
                  if ((f2 == 1 || f2 == 2) && w2 == WireType::kLengthDelimited) {
                    *h2 = true;
                    return r2.ReadString(f2 == 1 ? &item.name : &item.value);
                  }
                  return Status::OK();
                }));
            f.metadata.push_back(std::move(item));
            break;
          }
          case 6:
            SLUICE_PROTO_VARINT(m, f.number_of_rows);
            break;
          case 7: {
            SLUICE_PROTO_BYTES(m, v);
            SLUICE_ASSIGN_OR_RETURN(auto s, ParseColumnStatistics(v));
            f.statistics.push_back(std::move(s));
            break;
          }
          case 8:
            SLUICE_PROTO_VARINT(m, f.row_index_stride);
            break;
          case 9: {
            uint32_t w = 0;
            SLUICE_PROTO_VARINT(m, w);
            f.writer = w;
            break;
          }
          case 12: {
            SLUICE_PROTO_BYTES(m, v);
            f.software_version = std::string(v);
            break;
          }
          default:
            break;
        }
        return Status::OK();
      }));
  return f;
}

Result<std::vector<StripeStatistics>> ParseMetadata(std::string_view bytes) {
  std::vector<StripeStatistics> out;
  SLUICE_RETURN_NOT_OK(ForEachField(bytes, [&](uint32_t field, WireType wire, ProtoReader& r,
                                               bool* handled) {
    if (field != 1) return Status::OK();
    SLUICE_PROTO_BYTES("Metadata", v);
    StripeStatistics ss;
    SLUICE_RETURN_NOT_OK(ForEachField(v, [&](uint32_t f2, WireType w2, ProtoReader& r2, bool* h2) {
      if (f2 != 1) return Status::OK();
      if (w2 != WireType::kLengthDelimited) {
        return Status::Corruption("StripeStatistics: bad wire type");
      }
      std::string_view cs;
      SLUICE_RETURN_NOT_OK(r2.ReadBytes(&cs));
      *h2 = true;
      SLUICE_ASSIGN_OR_RETURN(auto stats, ParseColumnStatistics(cs));
      ss.column_stats.push_back(std::move(stats));
      return Status::OK();
    }));
    out.push_back(std::move(ss));
    return Status::OK();
  }));
  return out;
}

Result<StripeFooter> ParseStripeFooter(std::string_view bytes) {
  StripeFooter sf;
  SLUICE_RETURN_NOT_OK(
      ForEachField(bytes, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
        const char* m = "StripeFooter";
        if (field == 1) {
          SLUICE_PROTO_BYTES(m, v);
          StreamInfo s;
          uint32_t kind = 0;
          SLUICE_RETURN_NOT_OK(
              ForEachField(v, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
                const char* m2 = "Stream";
                if (field == 1) SLUICE_PROTO_VARINT(m2, kind);
                if (field == 2) SLUICE_PROTO_VARINT(m2, s.column);
                if (field == 3) SLUICE_PROTO_VARINT(m2, s.length);
                return Status::OK();
              }));
          s.raw_kind = kind;
          s.kind = kind <= 8 ? static_cast<StreamKind>(kind) : StreamKind::kDictionaryCount;
          sf.streams.push_back(s);
        } else if (field == 2) {
          SLUICE_PROTO_BYTES(m, v);
          ColumnEncoding e;
          uint32_t kind = 0;
          SLUICE_RETURN_NOT_OK(
              ForEachField(v, [&](uint32_t field, WireType wire, ProtoReader& r, bool* handled) {
                const char* m2 = "ColumnEncoding";
                if (field == 1) SLUICE_PROTO_VARINT(m2, kind);
                if (field == 2) SLUICE_PROTO_VARINT(m2, e.dictionary_size);
                return Status::OK();
              }));
          if (kind > static_cast<uint32_t>(EncodingKind::kDecimal64)) {
            return Status::Corruption("ColumnEncoding: unknown kind " + std::to_string(kind));
          }
          e.kind = static_cast<EncodingKind>(kind);
          sf.columns.push_back(e);
        } else if (field == 3) {
          SLUICE_PROTO_BYTES(m, v);
          sf.writer_timezone = std::string(v);
        }
        return Status::OK();
      }));
  return sf;
}

Result<std::vector<RowIndexEntry>> ParseRowIndex(std::string_view bytes) {
  std::vector<RowIndexEntry> out;
  SLUICE_RETURN_NOT_OK(ForEachField(bytes, [&](uint32_t field, WireType wire, ProtoReader& r,
                                               bool* handled) {
    if (field != 1) return Status::OK();
    SLUICE_PROTO_BYTES("RowIndex", v);
    RowIndexEntry e;
    SLUICE_RETURN_NOT_OK(ForEachField(v, [&](uint32_t f2, WireType w2, ProtoReader& r2, bool* h2) {
      if (f2 == 1) {
        *h2 = true;
        return r2.ReadPackedVarints(w2, &e.positions);
      }
      if (f2 == 2 && w2 == WireType::kLengthDelimited) {
        std::string_view cs;
        SLUICE_RETURN_NOT_OK(r2.ReadBytes(&cs));
        *h2 = true;
        SLUICE_ASSIGN_OR_RETURN(e.statistics, ParseColumnStatistics(cs));
      }
      return Status::OK();
    }));
    out.push_back(std::move(e));
    return Status::OK();
  }));
  return out;
}

Result<std::vector<BloomFilter>> ParseBloomFilterIndex(std::string_view bytes) {
  std::vector<BloomFilter> out;
  SLUICE_RETURN_NOT_OK(ForEachField(bytes, [&](uint32_t field, WireType wire, ProtoReader& r,
                                               bool* handled) {
    if (field != 1) return Status::OK();
    SLUICE_PROTO_BYTES("BloomFilterIndex", v);
    BloomFilter bf;
    SLUICE_RETURN_NOT_OK(ForEachField(v, [&](uint32_t f2, WireType w2, ProtoReader& r2, bool* h2) {
      if (f2 == 1 && w2 == WireType::kVarint) {
        uint64_t k;
        SLUICE_RETURN_NOT_OK(r2.ReadVarint(&k));
        bf.num_hash_functions = static_cast<uint32_t>(k);
        *h2 = true;
      } else if (f2 == 2 && w2 == WireType::kFixed64) {
        uint64_t word;
        SLUICE_RETURN_NOT_OK(r2.ReadFixed64(&word));
        bf.bitset.push_back(word);
        *h2 = true;
      } else if (f2 == 2 && w2 == WireType::kLengthDelimited) {
        std::string_view packed;
        SLUICE_RETURN_NOT_OK(r2.ReadBytes(&packed));
        *h2 = true;
        for (size_t i = 0; i + 8 <= packed.size(); i += 8) {
          bf.bitset.push_back(DecodeFixed64LE(reinterpret_cast<const uint8_t*>(packed.data() + i)));
        }
      } else if (f2 == 3 && w2 == WireType::kLengthDelimited) {
        std::string_view bits;
        SLUICE_RETURN_NOT_OK(r2.ReadBytes(&bits));
        *h2 = true;
        bf.bitset.clear();
        for (size_t i = 0; i + 8 <= bits.size(); i += 8) {
          bf.bitset.push_back(DecodeFixed64LE(reinterpret_cast<const uint8_t*>(bits.data() + i)));
        }
      }
      return Status::OK();
    }));
    out.push_back(std::move(bf));
    return Status::OK();
  }));
  return out;
}

std::string SerializePostScript(const PostScript& ps) {
  ProtoWriter w;
  w.Varint(1, ps.footer_length);
  w.Varint(2, static_cast<uint64_t>(ps.compression));
  if (ps.compression != OrcCompression::kNone) w.Varint(3, ps.compression_block_size);
  w.PackedVarints(4, ps.version);
  w.Varint(5, ps.metadata_length);
  w.Varint(6, ps.writer_version);
  w.Bytes(8000, "ORC");
  return w.Release();
}

std::string SerializeFooter(const Footer& f) {
  ProtoWriter w;
  w.Varint(1, f.header_length);
  w.Varint(2, f.content_length);
  for (const StripeInformation& s : f.stripes) {
    ProtoWriter m;
    m.Varint(1, s.offset);
    m.Varint(2, s.index_length);
    m.Varint(3, s.data_length);
    m.Varint(4, s.footer_length);
    m.Varint(5, s.number_of_rows);
    w.Bytes(3, m.str());
  }
  for (const OrcType& t : f.types) {
    ProtoWriter m;
    m.Varint(1, static_cast<uint64_t>(t.kind));
    std::vector<uint64_t> subs(t.subtypes.begin(), t.subtypes.end());
    m.PackedVarints(2, subs);
    for (const std::string& n : t.field_names) m.Bytes(3, n);
    if (t.kind == OrcTypeKind::kVarchar || t.kind == OrcTypeKind::kChar) {
      m.Varint(4, t.maximum_length);
    }
    if (t.kind == OrcTypeKind::kDecimal) {
      m.Varint(5, t.precision);
      m.Varint(6, t.scale);
    }
    for (const auto& [k, v] : t.attributes) {
      ProtoWriter kv;
      kv.Bytes(1, k);
      kv.Bytes(2, v);
      m.Bytes(7, kv.str());
    }
    w.Bytes(4, m.str());
  }
  for (const UserMetadataItem& item : f.metadata) {
    ProtoWriter m;
    m.Bytes(1, item.name);
    m.Bytes(2, item.value);
    w.Bytes(5, m.str());
  }
  w.Varint(6, f.number_of_rows);
  for (const OrcColumnStatistics& s : f.statistics) WriteColumnStatistics(&w, 7, s);
  w.Varint(8, f.row_index_stride);
  if (f.writer) w.Varint(9, *f.writer);
  if (!f.software_version.empty()) w.Bytes(12, f.software_version);
  return w.Release();
}

std::string SerializeMetadata(const std::vector<StripeStatistics>& stripes) {
  ProtoWriter w;
  for (const StripeStatistics& ss : stripes) {
    ProtoWriter m;
    for (const OrcColumnStatistics& s : ss.column_stats) WriteColumnStatistics(&m, 1, s);
    w.Bytes(1, m.str());
  }
  return w.Release();
}

std::string SerializeStripeFooter(const StripeFooter& f) {
  ProtoWriter w;
  for (const StreamInfo& s : f.streams) {
    ProtoWriter m;
    m.Varint(1, static_cast<uint64_t>(s.kind));
    m.Varint(2, s.column);
    m.Varint(3, s.length);
    w.Bytes(1, m.str());
  }
  for (const ColumnEncoding& e : f.columns) {
    ProtoWriter m;
    m.Varint(1, static_cast<uint64_t>(e.kind));
    if (e.kind == EncodingKind::kDictionary || e.kind == EncodingKind::kDictionaryV2) {
      m.Varint(2, e.dictionary_size);
    }
    w.Bytes(2, m.str());
  }
  if (f.writer_timezone) w.Bytes(3, *f.writer_timezone);
  return w.Release();
}

std::string SerializeRowIndex(const std::vector<RowIndexEntry>& entries) {
  ProtoWriter w;
  for (const RowIndexEntry& e : entries) {
    ProtoWriter m;
    if (!e.positions.empty()) {
      std::string p;
      for (uint64_t v : e.positions) PutVarint64(&p, v);
      m.Bytes(1, p);
    }
    if (e.statistics) WriteColumnStatistics(&m, 2, *e.statistics);
    w.Bytes(1, m.str());
  }
  return w.Release();
}

}  // namespace sluice::orc
