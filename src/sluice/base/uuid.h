// Random (version 4) UUIDs in their canonical text form, as Java's UUID.randomUUID().toString()
// prints them: the names of new data, manifest and index files.
//
// Thread safety: thread-safe; each thread draws from its own generator.
#pragma once

#include <string>

namespace sluice {

// "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx" in lower-case hex (y is 8, 9, a or b).
std::string NewUuidV4();

}  // namespace sluice
