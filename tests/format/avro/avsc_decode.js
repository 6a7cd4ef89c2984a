// Decodes Avro object container files with avsc (an independent Avro implementation) and prints
// one JSON array of records per file: node avsc_decode.js FILE...
//
// Output conventions, so that C++ can compare exactly: longs are decimal strings (JavaScript
// numbers cannot hold every long), bytes and fixed are lowercase hex strings, logical types are
// not applied (timestamps are their longs, decimals their bytes), ["null", T] unions unwrapped.
// Codecs: null and deflate (avsc built in), snappy (decoded here, with its CRC checked);
// zstandard cannot be decoded by Node 20 without an extra package.
'use strict';

const path = require('path');
const zlib = require('zlib');
const avro = require(path.join(__dirname, '../../oracle/node_modules/avsc'));

const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: (x) => BigInt(x),
  toJSON: (n) => n.toString(),
  isValid: (n) => typeof n == 'bigint',
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});

// Raw snappy block decompression (the format is small enough to decode here).
function snappyUncompress(input) {
  let pos = 0;
  let len = 0;
  for (let shift = 0; ; shift += 7) {
    const b = input[pos++];
    len += (b & 0x7f) * Math.pow(2, shift);
    if ((b & 0x80) === 0) break;
  }
  const out = Buffer.alloc(len);
  let op = 0;
  while (pos < input.length) {
    const tag = input[pos++];
    const kind = tag & 3;
    if (kind === 0) {
      let n = tag >> 2;
      if (n >= 60) {
        const bytes = n - 59;
        n = 0;
        for (let i = 0; i < bytes; i++) n += input[pos++] * Math.pow(256, i);
      }
      n += 1;
      input.copy(out, op, pos, pos + n);
      pos += n;
      op += n;
      continue;
    }
    let n;
    let offset;
    if (kind === 1) {
      n = ((tag >> 2) & 7) + 4;
      offset = ((tag >> 5) << 8) | input[pos++];
    } else if (kind === 2) {
      n = (tag >> 2) + 1;
      offset = input.readUInt16LE(pos);
      pos += 2;
    } else {
      n = (tag >> 2) + 1;
      offset = input.readUInt32LE(pos);
      pos += 4;
    }
    if (offset === 0 || offset > op) throw new Error('bad snappy copy offset');
    for (let i = 0; i < n; i++, op++) out[op] = out[op - offset];
  }
  if (op !== len) throw new Error('snappy length mismatch');
  return out;
}

const codecs = {
  null: (buf, cb) => cb(null, buf),
  deflate: (buf, cb) => zlib.inflateRaw(buf, cb),
  snappy: (buf, cb) => {
    try {
      const data = snappyUncompress(buf.subarray(0, buf.length - 4));
      if (zlib.crc32(data) !== buf.readUInt32BE(buf.length - 4)) throw new Error('snappy CRC mismatch');
      cb(null, data);
    } catch (err) {
      cb(err);
    }
  },
};

function toPlain(v) {
  if (v === null || v === undefined) return null;
  if (typeof v == 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (Array.isArray(v)) return v.map(toPlain);
  if (typeof v == 'object') {
    const o = {};
    for (const k of Object.keys(v)) o[k] = toPlain(v[k]);
    return o;
  }
  return v;
}

function decode(file) {
  return new Promise((resolve, reject) => {
    const records = [];
    avro
      .createFileDecoder(file, {
        codecs,
        parseHook: (schema) =>
          avro.Type.forSchema(schema, {
            // Every long, logical (timestamps) or not, decodes through longType.
            typeHook: (s) => (s === 'long' || (s && s.type === 'long') ? longType : undefined),
          }),
      })
      .on('data', (r) => records.push(toPlain(r)))
      .on('error', reject)
      .on('end', () => resolve(records));
  });
}

(async () => {
  for (const file of process.argv.slice(2)) {
    process.stdout.write(JSON.stringify(await decode(file)) + '\n');
  }
})().catch((err) => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n');
  process.exit(1);
});
