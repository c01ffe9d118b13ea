// The shared test vectors (ACVP, the ML-DSA reference KATs, the round-3 Dilithium KATs) through
// both APIs. Runs in Node (test/vectors.test.mjs) and in Chromium (test/browser/page.js): the
// caller loads the files and passes their text, and an `eq(actual, expected, label)` /
// `ok(cond, label)` pair that throws on failure. Returns the number of checks per part.

const hex = (s) => {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(2 * i, 2), 16);
  return out;
};

const byTcId = (expected) => {
  const m = new Map();
  for (const g of expected.testGroups) for (const t of g.tests) m.set(t.tcId, t);
  return m;
};

export const NOBLE_HASH = {
  'SHA2-224': ['sha2', 'sha224'],
  'SHA2-256': ['sha2', 'sha256'],
  'SHA2-384': ['sha2', 'sha384'],
  'SHA2-512': ['sha2', 'sha512'],
  'SHA2-512/224': ['sha2', 'sha512_224'],
  'SHA2-512/256': ['sha2', 'sha512_256'],
  'SHA3-224': ['sha3', 'sha3_224'],
  'SHA3-256': ['sha3', 'sha3_256'],
  'SHA3-384': ['sha3', 'sha3_384'],
  'SHA3-512': ['sha3', 'sha3_512'],
  'SHAKE-128': ['sha3', 'shake128'],
  'SHAKE-256': ['sha3', 'shake256'],
};

/**
 * A noble XOF with the fixed output length FIPS 204 gives it as a pre-hash (SHAKE128: 32 bytes,
 * SHAKE256: 64); noble's shake128/shake256 default to 16 and 32, which its prehash() refuses.
 */
export function xofAt(xof, outputLen) {
  return Object.assign((msg) => xof(msg, { dkLen: outputLen }), {
    create: (opts = {}) => xof.create({ dkLen: outputLen, ...opts }),
    outputLen,
    blockLen: xof.blockLen,
    oid: xof.oid,
  });
}

const STRENGTH = { 'ML-DSA-44': 128, 'ML-DSA-65': 192, 'ML-DSA-87': 256 };

/**
 * lib: { ml_dsa44, ml_dsa65, ml_dsa87, SigningKey, VerifyingKey, DilithiumSigningKey,
 * DilithiumVerifyingKey }; hashes: { sha2, sha3 } modules of @noble/hashes (with .oid).
 */
export function makeSuite(lib, hashes, { eq, ok }) {
  const dsa = { 'ML-DSA-44': lib.ml_dsa44, 'ML-DSA-65': lib.ml_dsa65, 'ML-DSA-87': lib.ml_dsa87 };
  const nobleHash = (name) => {
    const [mod, fn] = NOBLE_HASH[name];
    const h = hashes[mod][fn];
    return name.startsWith('SHAKE') ? xofAt(h, name === 'SHAKE-128' ? 32 : 64) : h;
  };
  // noble (and so the drop-in) refuses pre-hashes weaker than the set (FIPS 204 section 5.4
  // recommends against them); ACVP includes them. Those go through the idiomatic API only.
  const nobleAccepts = (set, name) => {
    const h = nobleHash(name);
    return (h.outputLen * 8) / 2 >= STRENGTH[set];
  };

  function keyGen(prompt, expected) {
    const want = byTcId(expected);
    let n = 0;
    for (const g of prompt.testGroups) {
      for (const t of g.tests) {
        const w = want.get(t.tcId);
        const seed = hex(t.seed);
        const { publicKey, secretKey } = dsa[g.parameterSet].keygen(seed);
        eq(publicKey, hex(w.pk), `keyGen ${t.tcId} pk (noble API)`);
        eq(secretKey, hex(w.sk), `keyGen ${t.tcId} sk (noble API)`);
        const key = lib.SigningKey.fromSeed(g.parameterSet, seed);
        eq(key.publicKey.toBytes(), hex(w.pk), `keyGen ${t.tcId} pk (key objects)`);
        eq(key.expanded(), hex(w.sk), `keyGen ${t.tcId} sk (key objects)`);
        key.free();
        n++;
      }
    }
    return n;
  }

  function sigGen(prompt, expected, { every = 1 } = {}) {
    const want = byTcId(expected);
    let n = 0;
    let skipped = 0;
    for (const g of prompt.testGroups) {
      const api = dsa[g.parameterSet];
      for (const [i, t] of g.tests.entries()) {
        if (i % every) continue;
        const sig = hex(want.get(t.tcId).signature);
        const sk = t.seed ? api.keygen(hex(t.seed)).secretKey : hex(t.sk);
        const extraEntropy = g.deterministic ? false : hex(t.rnd);
        const label = `sigGen tg ${g.tgId} tc ${t.tcId}`;
        if (g.signatureInterface === 'internal') {
          const m = g.externalMu ? hex(t.mu) : hex(t.message);
          eq(api.internal.sign(m, sk, { extraEntropy, externalMu: g.externalMu }), sig, label + ' (noble internal)');
          n++;
          continue;
        }
        const msg = hex(t.message);
        const context = hex(t.context);
        const key = lib.SigningKey.fromExpanded(g.parameterSet, sk, { check: false });
        if (g.preHash === 'preHash') {
          if (nobleAccepts(g.parameterSet, t.hashAlg)) {
            const ph = api.prehash(nobleHash(t.hashAlg));
            eq(ph.sign(msg, sk, { context, extraEntropy }), sig, label + ' (noble prehash)');
          } else skipped++;
          eq(key.signPrehashed(t.hashAlg, msg, { context, extraEntropy }), sig, label + ' (key objects prehash)');
        } else {
          eq(api.sign(msg, sk, { context, extraEntropy }), sig, label + ' (noble)');
          eq(key.sign(msg, { context, extraEntropy }), sig, label + ' (key objects)');
          const s = key.signer({ context });
          for (let o = 0; o < msg.length; o += 1000) s.update(msg.subarray(o, o + 1000));
          eq(s.sign({ extraEntropy }), sig, label + ' (streamed)');
        }
        key.free();
        n++;
      }
    }
    return { n, skipped };
  }

  function sigVer(prompt, expected) {
    const want = byTcId(expected);
    let n = 0;
    let skipped = 0;
    for (const g of prompt.testGroups) {
      const api = dsa[g.parameterSet];
      for (const t of g.tests) {
        const pass = want.get(t.tcId).testPassed;
        const pk = hex(t.pk);
        const sig = hex(t.signature);
        const label = `sigVer tc ${t.tcId} (${pass ? 'valid' : 'invalid'})`;
        if (g.signatureInterface === 'internal') {
          const m = g.externalMu ? hex(t.mu) : hex(t.message);
          eq(api.internal.verify(sig, m, pk, { externalMu: g.externalMu }), pass, label + ' noble internal');
          n++;
          continue;
        }
        const msg = hex(t.message);
        const context = hex(t.context);
        const vk = lib.VerifyingKey.fromBytes(g.parameterSet, pk);
        if (g.preHash === 'preHash') {
          if (nobleAccepts(g.parameterSet, t.hashAlg))
            eq(api.prehash(nobleHash(t.hashAlg)).verify(sig, msg, pk, { context }), pass, label + ' noble prehash');
          else skipped++;
          eq(vk.verifyPrehashed(t.hashAlg, sig, msg, { context }), pass, label + ' key objects prehash');
        } else {
          eq(api.verify(sig, msg, pk, { context }), pass, label + ' noble');
          eq(vk.verify(sig, msg, { context }), pass, label + ' key objects');
          eq(vk.prepare().verify(sig, msg, { context }), pass, label + ' prepared key');
        }
        vk.free();
        n++;
      }
    }
    return { n, skipped };
  }

  // itzmeanjan/ml-dsa's .kat: seed, pkey, skey, msg, ctx, rnd, sig.
  function refKat(text, set) {
    const api = dsa[set];
    let n = 0;
    for (const block of text.split(/\n\s*\n/)) {
      const f = Object.fromEntries(
        block.split('\n').filter((l) => l.includes(' = ')).map((l) => l.split(' = ').map((x) => x.trim()))
      );
      if (!f.seed) continue;
      const { publicKey, secretKey } = api.keygen(hex(f.seed));
      eq(publicKey, hex(f.pkey), `${set} kat ${n} pk`);
      eq(secretKey, hex(f.skey), `${set} kat ${n} sk`);
      const msg = hex(f.msg);
      const context = hex(f.ctx);
      const sig = hex(f.sig);
      eq(api.sign(msg, secretKey, { context, extraEntropy: hex(f.rnd) }), sig, `${set} kat ${n} sig (noble)`);
      const key = lib.SigningKey.fromSeed(set, hex(f.seed)).prepare();
      eq(key.sign(msg, { context, extraEntropy: hex(f.rnd) }), sig, `${set} kat ${n} sig (prepared key)`);
      ok(key.publicKey.verify(sig, msg, { context }), `${set} kat ${n} verifies`);
      key.free();
      n++;
    }
    return n;
  }

  // NIST PQCsignKAT .rsp (ML-DSA or round-3 Dilithium): pk, sk, msg, sm = sig || msg. rnd
  // came from the KAT's DRBG, so ML-DSA entries are checked by verification and key
  // consistency; round-3 signing is deterministic, so its signatures are recomputed.
  function rsp(text, set) {
    let n = 0;
    for (const block of text.split(/\n\s*\n/)) {
      const f = Object.fromEntries(
        block.split('\n').filter((l) => l.includes(' = ')).map((l) => l.split(' = ').map((x) => x.trim()))
      );
      if (!f.sm) continue;
      const pk = hex(f.pk);
      const sk = hex(f.sk);
      const msg = hex(f.msg);
      const sm = hex(f.sm);
      const sig = sm.subarray(0, sm.length - msg.length);
      if (set.startsWith('ML-DSA')) {
        const api = dsa[set];
        eq(api.getPublicKey(sk), pk, `${set} rsp ${f.count} pk from sk`);
        ok(api.verify(sig, msg, pk), `${set} rsp ${f.count} verifies (noble)`);
        const key = lib.SigningKey.fromExpanded(set, sk); // strict: tr and t0 recomputed
        ok(key.publicKey.verify(sig, msg), `${set} rsp ${f.count} verifies (key objects)`);
        key.free();
      } else {
        const key = lib.DilithiumSigningKey.fromBytes(set, sk);
        eq(key.publicKey.toBytes(), pk, `${set} rsp ${f.count} pk`);
        eq(key.sign(msg), sig, `${set} rsp ${f.count} signature`);
        ok(lib.DilithiumVerifyingKey.fromBytes(set, pk).verify(sig, msg), `${set} rsp ${f.count} verifies`);
        const bad = sig.slice();
        bad[0] ^= 1;
        ok(!lib.DilithiumVerifyingKey.fromBytes(set, pk).verify(bad, msg), `${set} rsp ${f.count} tampered fails`);
        key.free();
      }
      n++;
    }
    return n;
  }

  return { keyGen, sigGen, sigVer, refKat, rsp };
}

/** The vector files each part reads, relative to the shared vectors folder. */
export const FILES = {
  keyGen: ['acvp/ML-DSA-keyGen-FIPS204/prompt.json', 'acvp/ML-DSA-keyGen-FIPS204/expectedResults.json'],
  sigGen: ['acvp/ML-DSA-sigGen-FIPS204/prompt.json', 'acvp/ML-DSA-sigGen-FIPS204/expectedResults.json'],
  sigGenTr1: ['acvp/ML-DSA-sigGen-FIPS204-tr1/prompt.json', 'acvp/ML-DSA-sigGen-FIPS204-tr1/expectedResults.json'],
  sigVer: ['acvp/ML-DSA-sigVer-FIPS204/prompt.json', 'acvp/ML-DSA-sigVer-FIPS204/expectedResults.json'],
  refKat: ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'].map((s) => `ml-dsa-ref-kat/itzmeanjan-ml-dsa/ml_dsa_${s.slice(7)}.kat`),
  rspMlDsa: ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'].map((s) => `ml-dsa-ref-kat/pq-crystals-nistkat/PQCsignKAT_${s}.rsp`),
  rspRound3: ['Dilithium2', 'Dilithium3', 'Dilithium5'].map((s) => `dilithium-round3/PQCsignKAT_${s}.rsp`),
};
