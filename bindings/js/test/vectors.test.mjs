// ACVP and KAT vectors through the noble-compatible API and the key objects, in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as sha2 from '@noble/hashes/sha2.js';
import * as sha3 from '@noble/hashes/sha3.js';
import * as lib from 'mldsa-rs';
import { makeSuite, FILES } from './suite/vectors.js';
import { checks, readJson, readVector } from './helpers.mjs';

const suite = makeSuite(lib, { sha2, sha3 }, checks);

test('ACVP keyGen (75 cases)', () => {
  assert.equal(suite.keyGen(...FILES.keyGen.map(readJson)), 75);
});

test('ACVP sigGen (360 cases)', () => {
  const { n, skipped } = suite.sigGen(...FILES.sigGen.map(readJson));
  assert.equal(n, 360);
  console.log(`# sigGen: ${skipped} pre-hash cases weaker than their set went through the key objects only`);
});

test('ACVP sigGen test revision 1 (720 cases, seed and expanded keys)', () => {
  assert.equal(suite.sigGen(...FILES.sigGenTr1.map(readJson)).n, 720);
});

test('ACVP sigVer (180 cases)', () => {
  assert.equal(suite.sigVer(...FILES.sigVer.map(readJson)).n, 180);
});

test('reference KATs (itzmeanjan/ml-dsa, 3 x 100)', () => {
  for (const [i, set] of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'].entries())
    assert.equal(suite.refKat(readVector(FILES.refKat[i]), set), 100);
});

test('NIST PQCsignKAT ML-DSA (3 x 100)', () => {
  for (const [i, set] of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'].entries())
    assert.equal(suite.rsp(readVector(FILES.rspMlDsa[i]), set), 100);
});

test('round-3 Dilithium KATs (3 x 100)', () => {
  for (const [i, set] of ['Dilithium2', 'Dilithium3', 'Dilithium5'].entries())
    assert.equal(suite.rsp(readVector(FILES.rspRound3[i]), set), 100);
});
