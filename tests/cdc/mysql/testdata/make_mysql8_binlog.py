#!/usr/bin/env python3
"""Writes binlog_mysql8.bin: a binlog as MySQL 8 writes it (no MySQL server is packaged in
Debian, so this one is made by hand from the documented layouts): a format description of
server 8.0.36 with CRC32, a TABLE_MAP with MySQL's optional metadata (its unsigned flags skip
YEAR, its charsets skip GEOMETRY and JSON), and v2 WRITE / UPDATE ROWS events with a binary
JSON value. binlog_event_test.cc states the rows it holds."""
import pathlib
import struct
import zlib

SERVER_ID = 7


def event(type_code, body, log_pos):
    length = 19 + len(body) + 4
    header = struct.pack("<IBIIIH", 1700000000, type_code, SERVER_ID, length, log_pos, 0)
    data = header + body
    return data + struct.pack("<I", zlib.crc32(data))


def packed(n):
    return bytes([n]) if n < 251 else b"\xfc" + struct.pack("<H", n)


def lenenc(s):
    return packed(len(s)) + s


post_headers = bytearray(41)
for type_code, length in {2: 13, 4: 8, 15: 98, 16: 0, 19: 8, 23: 8, 24: 8, 25: 8, 30: 10,
                          31: 10, 32: 10, 33: 42, 35: 0}.items():
    post_headers[type_code - 1] = length
fde_body = (struct.pack("<H", 4) + b"8.0.36".ljust(50, b"\0") + struct.pack("<I", 0) +
            bytes([19]) + bytes(post_headers) + bytes([1]))  # checksum algorithm CRC32

# id INT, y YEAR, u INT UNSIGNED, j JSON, g GEOMETRY, v VARCHAR(20) latin1
types = bytes([3, 13, 3, 245, 255, 15])
metadata = bytes([4, 4, 20, 0])  # JSON and GEOMETRY: 4 length bytes; VARCHAR: 20
names = [b"id", b"y", b"u", b"j", b"g", b"v"]
optional = (
    bytes([1]) + lenenc(bytes([0x40]))  # SIGNEDNESS over id, u: u unsigned
    + bytes([2]) + lenenc(packed(255) + packed(0) + packed(8))  # default 255; v latin1
    + bytes([4]) + lenenc(b"".join(lenenc(n) for n in names))  # COLUMN_NAME
    + bytes([8]) + lenenc(packed(0)))  # SIMPLE_PRIMARY_KEY: id
table_map_body = (struct.pack("<Q", 100)[:6] + struct.pack("<H", 1) + b"\x01d\x00" + b"\x01t\x00" +
                  packed(6) + types + lenenc(metadata) + bytes([0b111110]) + optional)

# {"k": [1, "x"]}
array = bytes.fromhex("02000c00050100 0c0a00 0178".replace(" ", ""))
obj = bytes.fromhex("0100") + struct.pack("<H", 12 + len(array)) + bytes.fromhex(
    "0b000100020c00") + b"k" + array
json_doc = b"\x00" + obj


def row(id_, year, unsigned, doc, latin1):
    null_bits = 0b010000  # g
    values = (struct.pack("<i", id_) + bytes([year - 1900]) + struct.pack("<I", unsigned) +
              struct.pack("<I", len(doc)) + doc + bytes([len(latin1)]) + latin1)
    return bytes([null_bits]) + values


# The write is not its statement's last event (flags 0), the update is (STMT_END_F).
write_body = (struct.pack("<Q", 100)[:6] + struct.pack("<H", 0) + struct.pack("<H", 2) +
              packed(6) + bytes([0b111111]) + row(7, 2024, 4000000000, json_doc, b"\xe9"))
# An update with 3 bytes of extra row info (skipped) and the JSON literal true after.
update_body = (struct.pack("<Q", 100)[:6] + struct.pack("<H", 1) + struct.pack("<H", 5) +
               b"\x00\x01\x02" + packed(6) + bytes([0b111111]) + bytes([0b111111]) +
               row(7, 2024, 4000000000, json_doc, b"\xe9") + row(7, 1901, 0, b"\x04\x01", b""))

out = bytearray(b"\xfebin")
for type_code, body in [(15, fde_body), (19, table_map_body), (30, write_body),
                        (31, update_body)]:
    out += event(type_code, body, len(out) + 19 + len(body) + 4)
pathlib.Path(__file__).with_name("binlog_mysql8.bin").write_bytes(out)
