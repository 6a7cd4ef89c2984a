// The catalog Java's catalog options describe (Java CatalogFactory.createCatalog): `metastore`
// picks the implementation ("filesystem", the default; "jdbc"; "rest"),
// `warehouse` is its root (a local path, "file:" or an object store's URI), and the other options
// configure the metastore and the warehouse's file system (s3.endpoint, s3.access-key, ...).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "sluice/catalog/catalog_backend.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

// InvalidArgument naming a missing or malformed option; NotSupported naming the metastore or
// scheme Sluice has no implementation of.
Result<std::shared_ptr<const CatalogBackend>> CreateCatalog(
    const std::map<std::string, std::string>& options);

// A filesystem catalog over `warehouse` through `io`.
std::shared_ptr<const CatalogBackend> CreateFilesystemCatalog(std::shared_ptr<FileIO> io,
                                                              std::string warehouse);

}  // namespace sluice
