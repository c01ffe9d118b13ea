// Shared by the Node test files: where the vectors are, and assertions for the suite modules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** ../shared/vectors beside the repository, or $MLDSA_VECTORS. */
export const VECTORS = process.env.MLDSA_VECTORS || resolve(here, '../../../../shared/vectors');

export const readVector = (p) => readFileSync(join(VECTORS, p), 'utf8');
export const readJson = (p) => JSON.parse(readVector(p));

export const checks = {
  eq(actual, expected, label) {
    if (actual instanceof Uint8Array) actual = Buffer.from(actual).toString('hex');
    if (expected instanceof Uint8Array) expected = Buffer.from(expected).toString('hex');
    assert.equal(actual, expected, label);
  },
  ok(cond, label) {
    assert.ok(cond, label);
  },
};

/** n random bytes (crypto.getRandomValues gives at most 65536 per call). */
export function rand(n) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}
