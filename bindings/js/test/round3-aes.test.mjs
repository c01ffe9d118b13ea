// Round-3 Dilithium AES variants against the reference KAT, known only by the SHA-256 of its
// count = 0 entry (../shared/vectors/dilithium-aes-round3/README.md). The entry's seed and
// message are those of the SHAKE variant's KAT; the key generation seed zeta is the first 32
// bytes of the NIST AES-256 CTR DRBG seeded with that seed, computed here. The SHAKE sets'
// hashes are checked first, as the README asks, to prove the entry is formatted right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash } from 'node:crypto';
import { DilithiumSigningKey } from 'mldsa-rs/dilithium.js';
import { readVector } from './helpers.mjs';

const HASHES = {
  Dilithium2: 'faa8998108fa541309c9df5044018c5d26cc23654594bef639dd64b838646cbd',
  Dilithium3: '8439f580566c46b99449b2cbbd597ce59bcd5d184b90c1108b79a08f6bdbbcb1',
  Dilithium5: '984ea5f06b13778292f60ecc07301af76e375f1bb9f4a39d676513439e1e83a2',
  'Dilithium2-AES': '62569a8c8cf8781a60c88753dfa8806afac09e39f01df1bb6598ca29bac7f425',
  'Dilithium3-AES': '199db029b177b368d71bac8689e16394621b84ddc5517e8476312165288e63d3',
  'Dilithium5-AES': '5734f0f32acf7190130448bbc121994a29fa4355deeee167ef65dbed014f6ee0',
};

// NIST SP 800-90A CTR_DRBG with AES-256, no derivation function, as the NIST KAT harness's
// randombytes_init / randombytes: the first `n` bytes after instantiating with `seed`.
function drbgFirstBytes(seed, n) {
  const aes = (key, block) => createCipheriv('aes-256-ecb', key, null).setAutoPadding(false).update(block);
  const inc = (v) => {
    for (let i = 15; i >= 0; i--) if (++v[i] !== 256) return; else v[i] = 0;
  };
  let key = Buffer.alloc(32);
  const v = Buffer.alloc(16);
  const temp = Buffer.alloc(48);
  for (let i = 0; i < 3; i++) {
    inc(v);
    aes(key, v).copy(temp, 16 * i);
  }
  for (let i = 0; i < 48; i++) temp[i] ^= seed[i];
  key = temp.subarray(0, 32);
  temp.copy(v, 0, 32, 48);
  const out = Buffer.alloc(Math.ceil(n / 16) * 16);
  for (let i = 0; i < out.length; i += 16) {
    inc(v);
    aes(key, v).copy(out, i);
  }
  return out.subarray(0, n);
}

const hexUp = (b) => Buffer.from(b).toString('hex').toUpperCase();

for (const [set, want] of Object.entries(HASHES)) {
  test(`${set}: the reference KAT's count = 0 entry (SHA-256)`, () => {
    const base = set.replace('-AES', '');
    const rsp = readVector(`dilithium-round3/PQCsignKAT_${base}.rsp`);
    const field = (name) => rsp.match(new RegExp(`^${name} = (.*)$`, 'm'))[1];
    const seed = Buffer.from(field('seed'), 'hex');
    const msg = Buffer.from(field('msg'), 'hex');
    const key = DilithiumSigningKey.fromSeed(set, drbgFirstBytes(seed, 32));
    const pk = key.publicKey.toBytes();
    const sig = key.sign(msg);
    const entry =
      `count = 0\nseed = ${hexUp(seed)}\nmlen = ${msg.length}\nmsg = ${hexUp(msg)}\n` +
      `pk = ${hexUp(pk)}\nsk = ${hexUp(key.toBytes())}\nsmlen = ${sig.length + msg.length}\n` +
      `sm = ${hexUp(sig)}${hexUp(msg)}\n`;
    assert.equal(createHash('sha256').update(entry).digest('hex'), want);
    key.free();
  });
}
