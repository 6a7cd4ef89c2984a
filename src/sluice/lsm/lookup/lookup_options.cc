#include "sluice/lsm/lookup/lookup_options.h"

#include <string>

#include "sluice/base/string_util.h"
#include "sluice/meta/option_value.h"

namespace sluice {

Result<LookupOptions> LookupOptions::Make(const CoreOptions& options) {
  LookupOptions out;
  if (const std::string* v = options.Find("lookup.cache-file-retention")) {
    SLUICE_ASSIGN_OR_RETURN(std::chrono::milliseconds ms,
                            ParseDurationOption("lookup.cache-file-retention", *v));
    out.cache_file_retention_millis = ms.count();
  }
  if (const std::string* v = options.Find("lookup.cache-max-disk-size")) {
    SLUICE_ASSIGN_OR_RETURN(out.cache_max_disk_size,
                            ParseMemorySizeOption("lookup.cache-max-disk-size", *v));
  }
  if (const std::string* v = options.Find("lookup.cache-max-memory-size")) {
    SLUICE_ASSIGN_OR_RETURN(out.cache_max_memory_size,
                            ParseMemorySizeOption("lookup.cache-max-memory-size", *v));
  }
  if (const std::string* v = options.Find("lookup.cache-spill-compression")) {
    Result<CompressionKind> kind = ParseCompressionKind(*v);
    if (!kind.ok()) {
      return Status::InvalidArgument("option 'lookup.cache-spill-compression': unknown codec '" +
                                     *v + "'");
    }
    out.compression = *kind;
  }
  if (const std::string* v = options.Find("cache-page-size")) {
    SLUICE_ASSIGN_OR_RETURN(int64_t size, ParseMemorySizeOption("cache-page-size", *v));
    if (size <= 0 || size > (int64_t{1} << 30)) {
      return Status::InvalidArgument("option 'cache-page-size': " + *v +
                                     " is not between 1 byte and 1 gb");
    }
    out.block_size = static_cast<int32_t>(size);
  }
  if (const std::string* v = options.Find("lookup.cache.bloom.filter.enabled")) {
    SLUICE_ASSIGN_OR_RETURN(out.bloom_filter_enabled,
                            ParseBooleanOption("lookup.cache.bloom.filter.enabled", *v));
  }
  if (const std::string* v = options.Find("lookup.cache.bloom.filter.fpp")) {
    SLUICE_ASSIGN_OR_RETURN(out.bloom_filter_fpp,
                            ParseDoubleOption("lookup.cache.bloom.filter.fpp", *v));
    if (!(out.bloom_filter_fpp > 0 && out.bloom_filter_fpp < 1)) {
      return Status::InvalidArgument("option 'lookup.cache.bloom.filter.fpp': " + *v +
                                     " is not between 0 and 1");
    }
  }
  if (const std::string* v = options.Find("lookup.local-file-type")) {
    const std::string type = AsciiToLower(*v);
    if (type == "hash") {
      return Status::NotSupported(
          "option 'lookup.local-file-type' = hash: only the sort lookup store is supported "
          "(Java 1.4 has only that one too)");
    }
    if (type != "sort") {
      return Status::InvalidArgument("option 'lookup.local-file-type': unknown type '" + *v +
                                     "' (sort or hash)");
    }
  }
  if (const std::string* v = options.Find("lookup.remote-file.enabled")) {
    SLUICE_ASSIGN_OR_RETURN(bool remote, ParseBooleanOption("lookup.remote-file.enabled", *v));
    if (remote) {
      return Status::NotSupported(
          "option 'lookup.remote-file.enabled' = true: remote lookup files are not supported; "
          "lookup files are built locally from the data files");
    }
  }
  return out;
}

}  // namespace sluice
