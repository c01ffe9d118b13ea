// The key objects: RFC 9881 containers, streaming, prepared keys, the round-3 sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ALGORITHMS, DILITHIUM_ALGORITHMS, DilithiumSigningKey, DilithiumVerifyingKey, MlDsaError,
  SigningKey, VerifyingKey, ml_dsa65,
} from 'mldsa-rs';
import * as dilithiumModule from 'mldsa-rs/dilithium.js';

import { rand } from './helpers.mjs';
const hex = (b) => Buffer.from(b).toString('hex');

for (const alg of ALGORITHMS) {
  test(`${alg}: PKCS#8 and SPKI, DER and PEM, round trip in every form`, () => {
    const seed = rand(32);
    const key = SigningKey.fromSeed(alg, seed);
    const msg = rand(100);
    const sig = key.sign(msg, { extraEntropy: false });
    for (const form of ['seed', 'expanded', 'both']) {
      const der = key.toPkcs8({ form });
      const pem = key.toPkcs8({ form, pem: true });
      assert.match(pem, /^-----BEGIN PRIVATE KEY-----\n/);
      for (const doc of [der, pem, new TextEncoder().encode(pem)]) {
        const back = SigningKey.fromPkcs8(doc);
        assert.equal(back.algorithm, alg);
        assert.equal(hex(back.expanded()), hex(key.expanded()), `${form} expanded`);
        assert.equal(back.seed() && hex(back.seed()), form === 'expanded' ? undefined : hex(seed));
        assert.equal(hex(back.sign(msg, { extraEntropy: false })), hex(sig));
        back.free();
      }
    }
    const spkiDer = key.publicKey.toSpki();
    const spkiPem = key.publicKey.toSpki({ pem: true });
    assert.match(spkiPem, /^-----BEGIN PUBLIC KEY-----\n/);
    for (const doc of [spkiDer, spkiPem]) {
      const vk = VerifyingKey.fromSpki(doc);
      assert.equal(vk.algorithm, alg);
      assert.equal(hex(vk.toBytes()), hex(key.publicKey.toBytes()));
      assert.ok(vk.verify(sig, msg));
    }
    // A key imported from the expanded form has no seed to write.
    const expandedOnly = SigningKey.fromExpanded(alg, key.expanded());
    assert.throws(() => expandedOnly.toPkcs8(), MlDsaError);
    assert.ok(expandedOnly.toPkcs8({ form: 'expanded' }).length > 0);
  });

  test(`${alg}: streaming over chunks and a ReadableStream equals one-shot signing`, async () => {
    const key = SigningKey.generate(alg).prepare();
    const msg = rand(200_000);
    const context = rand(17);
    const whole = key.sign(msg, { context, extraEntropy: false });
    const signer = key.signer({ context });
    for (let i = 0; i < msg.length; i += 65_536) signer.update(msg.subarray(i, i + 65_536));
    assert.equal(hex(signer.sign({ extraEntropy: false })), hex(whole));
    assert.throws(() => signer.sign(), TypeError, 'a used signer');
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < msg.length; i += 4096) c.enqueue(msg.slice(i, i + 4096));
        c.close();
      },
    });
    assert.equal(hex(await key.signStream(stream, { context, extraEntropy: false })), hex(whole));
    const verifier = key.publicKey.prepare().verifier({ context });
    await verifier.updateStream((async function* () {
      yield msg.subarray(0, 5);
      yield msg.subarray(5);
    })());
    assert.ok(verifier.verify(whole));
    // Hedged signatures differ and verify.
    const h1 = key.sign(msg, { context });
    assert.notEqual(hex(h1), hex(key.sign(msg, { context })));
    assert.ok(key.publicKey.verify(h1, msg, { context }));
    assert.equal(key.publicKey.verify(h1, msg), false, 'wrong context');
  });
}

test('the key objects and the noble API agree (ML-DSA-65, pre-hash by name)', async () => {
  const { sha512 } = await import('@noble/hashes/sha2.js');
  const seed = rand(32);
  const { secretKey, publicKey } = ml_dsa65.keygen(seed);
  const key = SigningKey.fromSeed('ML-DSA-65', seed);
  const msg = rand(999);
  assert.equal(hex(key.publicKey.toBytes()), hex(publicKey));
  const viaNoble = ml_dsa65.prehash(sha512).sign(msg, secretKey, { extraEntropy: false });
  assert.equal(hex(key.signPrehashed('SHA2-512', msg, { extraEntropy: false })), hex(viaNoble));
  assert.equal(hex(key.signPrehashed('SHA-512', sha512(msg), { extraEntropy: false, digest: true })), hex(viaNoble));
  assert.ok(key.publicKey.verifyPrehashed('SHA2-512', viaNoble, msg));
});

test('round-3 Dilithium: every set, SHAKE and AES, signs and verifies; exported from ./dilithium.js', () => {
  assert.equal(dilithiumModule.DilithiumSigningKey, DilithiumSigningKey);
  for (const alg of DILITHIUM_ALGORITHMS) {
    const seed = rand(32);
    const key = DilithiumSigningKey.fromSeed(alg, seed);
    assert.equal(key.algorithm, alg);
    const again = DilithiumSigningKey.fromBytes(alg, key.toBytes());
    assert.equal(hex(again.publicKey.toBytes()), hex(key.publicKey.toBytes()));
    const msg = rand(333);
    const sig = key.sign(msg);
    assert.equal(hex(again.prepare().sign(msg)), hex(sig), 'deterministic');
    const vk = DilithiumVerifyingKey.fromBytes(alg, key.publicKey.toBytes());
    assert.ok(vk.verify(sig, msg));
    const randomized = key.sign(msg, { randomized: true });
    assert.notEqual(hex(randomized), hex(sig));
    assert.ok(vk.verify(randomized, msg));
    assert.equal(vk.verify(sig, msg.subarray(1)), false);
    key.free();
    again.free();
  }
});
