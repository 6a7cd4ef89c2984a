// Just enough XML for S3's responses (ListBucketResult, Error, InitiateMultipartUploadResult,
// DeleteResult, CopyObjectResult) and the bodies Sluice sends (CompleteMultipartUpload,
// Delete): flat elements found by name, entities decoded. S3 nests none of the elements read
// here inside an element of the same name, which is what makes a scan by name enough.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// The inner text of each <tag>...</tag> (or empty <tag/>) in `xml`, in order, undecoded.
// REQUIRES: no <tag> nested in another <tag>.
std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag);

// The decoded text of the first <tag> in `xml`, or "" when there is none.
std::string XmlText(std::string_view xml, std::string_view tag);

// `text` with the five predefined entities and numeric references decoded.
std::string XmlDecode(std::string_view text);
// `text` with & < > " ' as entities.
std::string XmlEscape(std::string_view text);

}  // namespace sluice
