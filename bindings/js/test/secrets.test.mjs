// No secret left in wasm memory: after each one-shot call returns, and after a key object is
// freed, the instance's whole linear memory (which any code holding the module could read) is
// searched for pieces of the secret: the seed xi, K, and windows of s1, s2 and t0 from the
// expanded key; and the stack below the top frames must be all zero. As a control, the same search must find the seed while a key object holding it
// is alive, which shows that the search would see a leftover copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { instance } from '../lib/wasm.js';
import { DilithiumSigningKey, SigningKey, ml_dsa44, ml_dsa65, ml_dsa87 } from 'mldsa-rs';

const memory = () => Buffer.from(instance.memory.buffer);
import { rand } from './helpers.mjs';

// 16-byte windows of the secret: xi, then of the expanded key K (bytes 32..64) and every
// 128th offset of s1 || s2 || t0 (from byte 128 on).
function needles(seed, expanded) {
  const out = [['seed', seed.subarray(0, 16)], ['seed tail', seed.subarray(16)]];
  if (expanded) {
    out.push(['K', expanded.subarray(32, 48)]);
    for (let o = 128; o + 16 <= expanded.length; o += 128) out.push([`sk[${o}]`, expanded.subarray(o, o + 16)]);
  }
  return out;
}

// The shadow stack is the first MiB of memory (rustc links wasm32 with --stack-first), growing
// down from 1 MiB. Below the frames of the exported functions (the top KiB), a secret call must
// leave it all zero: src/wipe.rs zeroes what the call used, and the deepest call of all
// (verification, 68 KiB) stays within what it zeroes.
const STACK_TOP = 1 << 20;
const stackResidue = () => new Uint8Array(instance.memory.buffer, 0, STACK_TOP - 1024).reduce((n, b) => n + (b !== 0), 0);

function leftovers(seed, expanded) {
  const mem = memory();
  const found = needles(seed, expanded).filter(([, n]) => mem.indexOf(n) !== -1).map(([name]) => name);
  const residue = stackResidue();
  if (residue) found.push(`${residue} non-zero stack bytes`);
  return found;
}

for (const [name, api] of Object.entries({ ml_dsa44, ml_dsa65, ml_dsa87 })) {
  test(`${name}: one-shot keygen, getPublicKey, sign, internal and prehash sign leave no secret`, () => {
    const seed = rand(32);
    const { secretKey } = api.keygen(seed);
    assert.deepEqual(leftovers(seed, secretKey), [], 'after keygen');
    api.getPublicKey(secretKey);
    assert.deepEqual(leftovers(seed, secretKey), [], 'after getPublicKey');
    for (const extraEntropy of [false, undefined]) {
      api.sign(rand(5000), secretKey, { extraEntropy, context: rand(9) });
      assert.deepEqual(leftovers(seed, secretKey), [], 'after sign');
    }
    api.internal.sign(rand(64), secretKey, { externalMu: true });
    assert.deepEqual(leftovers(seed, secretKey), [], 'after internal sign');
  });
}

test('a key object: its seed is in memory while alive (the control), gone after free()', () => {
  for (const alg of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
    const seed = rand(32);
    const key = SigningKey.fromSeed(alg, seed).prepare();
    const expanded = key.expanded();
    const msg = rand(3000);
    key.sign(msg);
    key.signPrehashed('SHA2-512', msg);
    const s = key.signer();
    s.update(msg);
    s.sign();
    const der = key.toPkcs8({ form: 'both' });
    const pem = key.toPkcs8({ pem: true });
    SigningKey.fromPkcs8(der).free();
    SigningKey.fromPkcs8(pem).free();
    assert.ok(memory().indexOf(seed) !== -1, 'the search finds the live key\'s seed');
    key.free();
    assert.deepEqual(leftovers(seed, expanded), [], `${alg} after free`);
  }
});

test('round-3 keys: nothing left after free()', () => {
  for (const alg of ['Dilithium3', 'Dilithium5-AES']) {
    const seed = rand(32);
    const key = DilithiumSigningKey.fromSeed(alg, seed);
    const bytes = key.toBytes();
    key.sign(rand(100));
    key.sign(rand(100), { randomized: true });
    key.free();
    assert.deepEqual(leftovers(seed, bytes), [], `${alg} after free`);
  }
});
