// Bad input to the key objects: named errors that say what was wrong, and an instance that
// keeps working afterwards (nothing traps).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DilithiumSigningKey, MlDsaError, SigningKey, VerifyingKey, ml_dsa44 } from 'mldsa-rs';

import { rand } from './helpers.mjs';

test('bad arguments throw TypeError, RangeError or MlDsaError with a message naming the problem', () => {
  const key = SigningKey.generate('ML-DSA-44');
  const pk = key.publicKey.toBytes();
  const cases = [
    [() => SigningKey.generate('ML-DSA-99'), RangeError, /ML-DSA-44/],
    [() => SigningKey.fromSeed('ML-DSA-44', rand(31)), RangeError, /"seed" expected 32 bytes, got 31/],
    [() => SigningKey.fromSeed('ML-DSA-44', [1, 2]), TypeError, /"seed" expected Uint8Array, got Array/],
    [() => SigningKey.fromExpanded('ML-DSA-44', rand(100)), RangeError, /signing key must be 2560 bytes, got 100/],
    [() => SigningKey.fromExpanded('ML-DSA-44', rand(2560)), MlDsaError, /malformed/],
    [() => SigningKey.fromExpanded('ML-DSA-44', key.expanded(), { check: 'yes' }), TypeError, /opts.check/],
    [() => SigningKey.fromPkcs8(rand(50)), MlDsaError, /./],
    [() => SigningKey.fromPkcs8('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'), MlDsaError, /./],
    [() => SigningKey.fromPkcs8(key.publicKey.toSpki({ pem: true })), MlDsaError, /PUBLIC KEY|label/i],
    [() => SigningKey.fromPkcs8(42), TypeError, /"pkcs8" expected Uint8Array/],
    [() => VerifyingKey.fromSpki(key.toPkcs8()), MlDsaError, /./],
    [() => VerifyingKey.fromBytes('ML-DSA-44', pk.subarray(1)), RangeError, /1312/],
    [() => key.sign('text'), TypeError, /"message" expected Uint8Array, got string/],
    [() => key.sign(rand(1), { context: rand(256) }), RangeError, /at most 255 bytes, got 256/],
    [() => key.sign(rand(1), { extraEntropy: rand(16) }), RangeError, /extraEntropy/],
    [() => key.sign(rand(1), { colour: 1 }), TypeError, /unexpected option "colour"/],
    [() => key.signPrehashed('MD5', rand(1)), RangeError, /unknown pre-hash "MD5"/],
    [() => key.signPrehashed('SHA2-256', rand(31), { digest: true }), RangeError, /32/],
    [() => key.toPkcs8({ form: 'compact' }), RangeError, /form/],
    [() => key.publicKey.verify(rand(10), rand(1), { context: rand(300) }), RangeError, /255/],
    [() => DilithiumSigningKey.generate('Dilithium4'), RangeError, /Dilithium2/],
    [() => DilithiumSigningKey.fromBytes('Dilithium2', rand(10)), RangeError, /2528/],
    [() => ml_dsa44.sign(rand(1), rand(2560).fill(0xff)), MlDsaError, /malformed/],
  ];
  for (const [f, cls, msg] of cases) assert.throws(f, (e) => e instanceof cls && msg.test(e.message), String(f));
  // Still working; a wrong-length signature is just invalid.
  const m = rand(10);
  assert.ok(key.publicKey.verify(key.sign(m), m));
  assert.equal(key.publicKey.verify(rand(5), m), false);
});

test('a freed key says so instead of touching freed memory', () => {
  const key = SigningKey.generate('ML-DSA-65');
  key.free();
  assert.throws(() => key.sign(rand(1)), /freed/);
  key.free(); // twice is fine
});
