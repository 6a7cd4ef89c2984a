"""Reads Parquet files from an S3-compatible server with pyarrow's S3 file system (Arrow C++'s
S3 client and Parquet reader) and prints their rows.

Usage: arrow_s3_read.py ENDPOINT ACCESS_KEY SECRET_KEY OUT_JSONL URI...
ENDPOINT is http://HOST:PORT (path-style access, region us-east-1); each URI is
s3://bucket/key. OUT_JSONL gets one line per file: {"file": URI, "rows": [{column: value}...],
"columns": [name...]}, or {"file": URI, "error": MESSAGE} when pyarrow cannot read it.
"""

import json
import sys
from urllib.parse import urlparse

import pyarrow.fs as pafs
import pyarrow.parquet as pq


def main(endpoint, access_key, secret_key, out_path, uris):
    parsed = urlparse(endpoint)
    fs = pafs.S3FileSystem(access_key=access_key, secret_key=secret_key,
                           endpoint_override=parsed.netloc, scheme=parsed.scheme,
                           region="us-east-1", force_virtual_addressing=False)
    with open(out_path, "w") as out:
        for uri in uris:
            try:
                table = pq.read_table(uri[len("s3://"):], filesystem=fs)
                record = {"file": uri, "columns": table.column_names,
                          "rows": table.to_pylist()}
            except Exception as e:  # the C++ test reports it against the file
                record = {"file": uri, "error": "%s: %s" % (type(e).__name__, e)}
            out.write(json.dumps(record, allow_nan=False) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
