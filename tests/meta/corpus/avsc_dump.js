// Decodes Avro object container files with avsc, an Avro implementation independent of ours,
// and prints one JSON document: {"<path>": [record, ...], ...}. Bytes are printed as hex,
// longs as decimal strings (JSON numbers lose precision past 2^53).
'use strict';
const path = require('path');
const oracle = process.env.SLUICE_ORACLE_DIR || path.join(__dirname, '..', '..', 'oracle');
const avro = require(path.join(oracle, 'node_modules', 'avsc'));
const zlib = require('zlib');
const {execFileSync} = require('child_process');

// Node 20 has no zstd: the zstd command-line tool (Debian package zstd) decodes the blocks.
function zstdDecompress(buf, cb) {
  try {
    cb(null, execFileSync('zstd', ['-d', '-q', '-c'], {input: buf, maxBuffer: 1 << 30}));
  } catch (e) {
    cb(e);
  }
}

const codecs = {
  null: (buf, cb) => cb(null, buf),
  deflate: (buf, cb) => zlib.inflateRaw(buf, cb),
  zstandard: zstdDecompress,
};

const longType = avro.types.LongType.__with({
  fromBuffer: (buf) => buf.readBigInt64LE(),
  toBuffer: (n) => {
    const buf = Buffer.alloc(8);
    buf.writeBigInt64LE(BigInt(n));
    return buf;
  },
  fromJSON: BigInt,
  toJSON: Number,
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
});

function canon(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return {hex: v.toString('hex')};
  if (Array.isArray(v)) return v.map(canon);
  if (typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v)) out[k] = canon(v[k]);
    return out;
  }
  return v;
}

async function decode(file) {
  return new Promise((resolve, reject) => {
    const records = [];
    avro.createFileDecoder(file, {codecs, parseHook: (schema) =>
      avro.Type.forSchema(schema, {registry: {long: longType}, wrapUnions: false})})
      .on('data', (r) => records.push(canon(r)))
      .on('error', reject)
      .on('end', () => resolve(records));
  });
}

(async () => {
  const out = {};
  for (const f of process.argv.slice(2)) out[f] = await decode(f);
  process.stdout.write(JSON.stringify(out));
})().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
