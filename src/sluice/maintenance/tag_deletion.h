// TagDeletion: deletes a tag and the files only it kept (Java TagManager.deleteTag with
// TagDeletion), what automatic tag expiry (`tag.num-retained-max`, tag time retention) and the
// delete_tag / expire_tags procedures do.
//
// When the tagged snapshot still exists, or another tag names the same snapshot, only the tag
// file goes. Otherwise the tagged snapshot's live data files (with their extra files), its
// manifest lists, manifests, index manifest, index files and statistics go too, except those a
// retained snapshot, another tag, a long-lived changelog or another branch uses (Java keeps
// what the neighbouring tags or the earliest snapshot use: the same files, since a file live in
// two versions is live in every version between). Its changelog is not touched: snapshot expiry
// deleted it (Java likewise).
//
// Crash safety: the tag file goes first, then the files, so a crash leaves orphans
// (RemoveOrphanFiles), never a tag that misses a file.
//
// Thread safety: a function; concurrent deletions of one tag race as Java's do.
#pragma once

#include <string_view>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

// NotFound naming the tag when it does not exist; returns how many files besides the tag file
// it deleted.
Result<int64_t> DeleteTagAndUnusedFiles(const FileStoreTable& table, std::string_view name);

}  // namespace sluice
