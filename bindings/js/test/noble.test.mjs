// Agreement with @noble/post-quantum itself (a dev dependency): the same exports and shape,
// byte-identical keys and deterministic signatures over random seeds, each verifying the
// other's hedged signatures, and the same error classes for bad arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { shake256 } from '@noble/hashes/sha3.js';
import * as ours from 'mldsa-rs/ml-dsa.js';
import * as root from 'mldsa-rs';
import { xofAt } from './suite/vectors.js';

const SETS = ['ml_dsa44', 'ml_dsa65', 'ml_dsa87'];
import { rand } from './helpers.mjs';
const hex = (b) => Buffer.from(b).toString('hex');
const ROUNDS = Number(process.env.MLDSA_NOBLE_ROUNDS || 8);

// The shape of a value: functions and nested objects by key, numbers and strings by value.
function shape(v) {
  if (typeof v === 'function') return 'function';
  if (v && typeof v === 'object' && !(v instanceof Uint8Array))
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape(v[k])]));
  return v;
}

test('exports: the same names as noble ml-dsa.js, also from the package root', () => {
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(noble).sort());
  for (const name of Object.keys(noble)) assert.equal(root[name], ours[name], `root export ${name}`);
});

test('shape: each set, its internal and prehash signers, lengths, info, PARAMS', () => {
  assert.deepEqual(shape(ours.PARAMS), shape(noble.PARAMS));
  for (const s of SETS) {
    assert.deepEqual(shape(ours[s]), shape(noble[s]), s);
    assert.deepEqual(shape(ours[s].prehash(sha512)), shape(noble[s].prehash(sha512)), `${s}.prehash`);
    assert.ok(Object.isFrozen(ours[s]) && Object.isFrozen(ours[s].internal), `${s} frozen as noble's`);
  }
});

test('types: our ml-dsa.d.ts declares the names and members noble ml-dsa.d.ts does', () => {
  const require = createRequire(import.meta.url);
  const theirs = readFileSync(require.resolve('@noble/post-quantum/ml-dsa.js').replace(/\.js$/, '.d.ts'), 'utf8');
  const mine = readFileSync(new URL('../lib/ml-dsa.d.ts', import.meta.url), 'utf8');
  const declared = (src) =>
    [...src.matchAll(/export (?:declare )?(?:const|type|function|interface) (\w+)/g)].map((m) => m[1]).sort();
  assert.deepEqual(declared(mine), declared(theirs));
  // The members of DSA, DSAInternal and DSAInternalOpts, as written in noble's declarations.
  for (const member of ['internal:', 'securityLevel:', 'prehash:', 'externalMu?:', 'lengths:']) {
    assert.ok(theirs.includes(member), `noble declares ${member}`);
    assert.ok(mine.includes(member), `ours declares ${member}`);
  }
});

for (const s of SETS) {
  test(`${s}: keys and deterministic signatures equal noble's over random seeds`, () => {
    for (let i = 0; i < ROUNDS; i++) {
      const seed = rand(32);
      const a = ours[s].keygen(seed);
      const b = noble[s].keygen(seed);
      assert.equal(hex(a.publicKey), hex(b.publicKey), `pk, seed ${hex(seed)}`);
      assert.equal(hex(a.secretKey), hex(b.secretKey), `sk, seed ${hex(seed)}`);
      assert.equal(hex(ours[s].getPublicKey(b.secretKey)), hex(b.publicKey), 'getPublicKey');
      const msg = rand(i * 37);
      const context = rand(i * 31);
      const opts = { context, extraEntropy: false };
      assert.equal(hex(ours[s].sign(msg, a.secretKey, opts)), hex(noble[s].sign(msg, b.secretKey, opts)), 'pure');
      const rnd = rand(32);
      assert.equal(
        hex(ours[s].sign(msg, a.secretKey, { extraEntropy: rnd })),
        hex(noble[s].sign(msg, b.secretKey, { extraEntropy: rnd })),
        'caller rnd'
      );
      const ph = [sha256, sha512, xofAt(shake256, 64)][i % 3];
      if ((ph.outputLen * 8) / 2 >= ours[s].securityLevel)
        assert.equal(
          hex(ours[s].prehash(ph).sign(msg, a.secretKey, opts)),
          hex(noble[s].prehash(ph).sign(msg, b.secretKey, opts)),
          'prehash'
        );
      const mu = rand(64);
      const iopts = { externalMu: true, extraEntropy: false };
      assert.equal(hex(ours[s].internal.sign(mu, a.secretKey, iopts)), hex(noble[s].internal.sign(mu, b.secretKey, iopts)), 'external mu');
      assert.equal(
        hex(ours[s].internal.sign(msg, a.secretKey, { extraEntropy: false })),
        hex(noble[s].internal.sign(msg, b.secretKey, { extraEntropy: false })),
        'internal M\''
      );
    }
  });

  test(`${s}: each verifies the other's hedged signatures, and rejects tampered ones alike`, () => {
    for (let i = 0; i < ROUNDS; i++) {
      const { publicKey, secretKey } = noble[s].keygen(rand(32));
      const msg = rand(1 + i * 101);
      const context = rand(i);
      const fromUs = ours[s].sign(msg, secretKey, { context });
      const fromNoble = noble[s].sign(msg, secretKey, { context });
      assert.ok(noble[s].verify(fromUs, msg, publicKey, { context }));
      assert.ok(ours[s].verify(fromNoble, msg, publicKey, { context }));
      assert.ok(ours[s].verify(fromUs, msg, publicKey, { context }));
      const bad = fromNoble.slice();
      bad[i % bad.length] ^= 1 << i % 8;
      assert.equal(ours[s].verify(bad, msg, publicKey, { context }), noble[s].verify(bad, msg, publicKey, { context }));
      assert.equal(ours[s].verify(fromNoble, msg, publicKey, { context: rand(1) }), false);
      const short = fromNoble.subarray(1);
      assert.equal(ours[s].verify(short, msg, publicKey), noble[s].verify(short, msg, publicKey));
      const ph = noble[s].prehash(sha512).sign(msg, secretKey, { context });
      assert.ok(ours[s].prehash(sha512).verify(ph, msg, publicKey, { context }));
    }
  });
}

// Each bad call must throw in both libraries, with the same error class.
test('bad arguments throw the error classes noble throws', () => {
  const { publicKey, secretKey } = noble.ml_dsa44.keygen(rand(32));
  const sig = noble.ml_dsa44.sign(new Uint8Array(1), secretKey);
  const msg = new Uint8Array(3);
  const cases = {
    'keygen short seed': (l) => l.ml_dsa44.keygen(new Uint8Array(31)),
    'keygen string seed': (l) => l.ml_dsa44.keygen('seed'),
    'sign short key': (l) => l.ml_dsa44.sign(msg, secretKey.subarray(1)),
    'sign array message': (l) => l.ml_dsa44.sign([1, 2], secretKey),
    'sign long context': (l) => l.ml_dsa44.sign(msg, secretKey, { context: new Uint8Array(256) }),
    'sign short extraEntropy': (l) => l.ml_dsa44.sign(msg, secretKey, { extraEntropy: new Uint8Array(31) }),
    'sign unknown option': (l) => l.ml_dsa44.sign(msg, secretKey, { foo: 1 }),
    'sign opts as bytes': (l) => l.ml_dsa44.sign(msg, secretKey, new Uint8Array(1)),
    'verify short public key': (l) => l.ml_dsa44.verify(sig, msg, publicKey.subarray(1)),
    'verify null signature': (l) => l.ml_dsa44.verify(null, msg, publicKey),
    'verify long context': (l) => l.ml_dsa44.verify(sig, msg, publicKey, { context: new Uint8Array(300) }),
    'internal short mu': (l) => l.ml_dsa44.internal.sign(new Uint8Array(63), secretKey, { externalMu: true }),
    'internal externalMu not boolean': (l) => l.ml_dsa44.internal.sign(msg, secretKey, { externalMu: 1 }),
    'prehash without oid': (l) => l.ml_dsa44.prehash(Object.assign((m) => m, { create() {}, outputLen: 64 })),
    'prehash too weak': (l) => l.ml_dsa87.prehash(sha256),
  };
  for (const [name, f] of Object.entries(cases)) {
    let theirs;
    try {
      f(noble);
    } catch (e) {
      theirs = e;
    }
    assert.ok(theirs, `noble throws on ${name}`);
    assert.throws(() => f(ours), (e) => e.constructor === theirs.constructor && e.message.length > 0, name);
  }
  // The instance is intact afterwards.
  assert.ok(ours.ml_dsa44.verify(sig, new Uint8Array(1), publicKey));
});
