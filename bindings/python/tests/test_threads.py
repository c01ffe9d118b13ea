"""Several threads sharing keys: every result correct (the GIL is released inside, so this
also exercises concurrent use of the same Rust objects)."""

from concurrent.futures import ThreadPoolExecutor

import mldsa_rs


def test_threads_share_keys():
    key = mldsa_rs.MLDSA65PrivateKey.from_seed_bytes(bytes(32))
    prepared = key.prepared()
    pub = key.public_key()
    fast_pub = pub.prepared()
    want = {i: key.sign(b"msg %d" % i, deterministic=True) for i in range(40)}

    def work(i):
        msg = b"msg %d" % i
        signer = prepared if i % 2 else key
        assert signer.sign(msg, deterministic=True) == want[i]
        sig = signer.sign(msg)
        (fast_pub if i % 3 else pub).verify(sig, msg)
        try:
            pub.verify(want[i], msg + b"!")
        except mldsa_rs.InvalidSignature:
            return True
        return False

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(work, range(40)))
    assert results == [True] * 40


def test_drop_in_signing_with_keys_taking_turns():
    """The drop-in keeps the public matrix of the key it last signed with, per parameter set:
    keys that take turns, in one thread and across threads (the kept matrix swapped under the
    signers' feet), must give the signatures each key gives when it signs alone. The third key
    differs from the first in rho's last byte only, so a matrix matched on less than all of rho
    would show; its signature is also checked against dilithium-py's."""
    import pytest

    import mldsa_rs.ml_dsa as dropin

    dpy = pytest.importorskip("dilithium_py.ml_dsa")
    for level in (44, 65, 87):
        ml_dsa = getattr(dropin, f"ML_DSA_{level}")
        keys = [ml_dsa.key_derive(bytes([i]) * 32)[1] for i in range(2)]
        near = bytearray(keys[0])
        near[31] ^= 1
        keys.append(bytes(near))
        cases = [(i % 3, b"turn %d" % i) for i in range(30)]
        alone = {}
        for k, sk in enumerate(keys):  # each key signs all its messages in a row
            for j, msg in cases:
                if j == k:
                    alone[k, msg] = ml_dsa.sign(sk, msg, deterministic=True)
        expected = [alone[k, msg] for k, msg in cases]

        def sign(case, ml_dsa=ml_dsa, keys=keys):
            return ml_dsa.sign(keys[case[0]], case[1], deterministic=True)

        assert [sign(c) for c in cases] == expected
        with ThreadPoolExecutor(max_workers=4) as pool:
            assert list(pool.map(sign, cases)) == expected
        theirs = getattr(dpy, f"ML_DSA_{level}").sign(keys[2], b"turn 2", deterministic=True)
        assert alone[2, b"turn 2"] == theirs


def test_drop_in_verifying_with_keys_taking_turns():
    """The drop-in keeps, per parameter set, the public key it last verified with, and prepares
    it when it comes a second time in a row: a prepared key must be used only for its own
    bytes. Three public keys (the third differs from the first in its last byte only, so a key
    matched on less than all its bytes would show) take turns, in one thread and on 4 threads,
    each checking its own signature (which must verify) and the next key's (which must not);
    the same key twice in a row must leave it prepared, another key must replace it."""
    from mldsa_rs._native import forget_verifying_keys, verifying_key_is_prepared

    import mldsa_rs.ml_dsa as dropin

    for level in (44, 65, 87):
        ml_dsa = getattr(dropin, f"ML_DSA_{level}")
        pairs = [ml_dsa.key_derive(bytes([i]) * 32) for i in range(2)]
        near = bytearray(pairs[0][0])
        near[-1] ^= 1
        pks = [pairs[0][0], pairs[1][0], bytes(near)]
        sigs = [ml_dsa.sign(pairs[i % 2][1], b"m", deterministic=True) for i in range(3)]
        # The near key's "own" signature is the first key's, which it must reject.
        own = [True, True, False]

        forget_verifying_keys()
        assert ml_dsa.verify(pks[0], b"m", sigs[0])
        assert not verifying_key_is_prepared(level, pks[0])
        assert ml_dsa.verify(pks[0], b"m", sigs[0])
        assert verifying_key_is_prepared(level, pks[0])
        assert not ml_dsa.verify(pks[2], b"m", sigs[0])  # near key: not the prepared one
        assert not verifying_key_is_prepared(level, pks[0])
        assert ml_dsa.verify(pks[0], b"m", sigs[0], ctx=b"") and not ml_dsa.verify(
            pks[0], b"m", sigs[0], ctx=b"x"
        )

        cases = [(i % 3, i // 3 % 2 == 0) for i in range(60)]
        expected = [own[k] if mine else False for k, mine in cases]

        def verify(case, ml_dsa=ml_dsa, pks=pks, sigs=sigs):
            k, mine = case
            return ml_dsa.verify(pks[k], b"m", sigs[k] if mine else sigs[(k + 1) % 2])

        # Runs of the same key too, so that kept keys are prepared and then replaced.
        runs = [c for c in cases for _ in range(1 + c[0])]
        run_expected = [e for c, e in zip(cases, expected) for _ in range(1 + c[0])]
        assert [verify(c) for c in runs] == run_expected
        with ThreadPoolExecutor(max_workers=4) as pool:
            assert list(pool.map(verify, runs)) == run_expected


def test_one_streaming_signer_shared_by_threads():
    """A mutable object under contention (a real race on free-threaded CPython, where
    freethreaded.sh runs this with the GIL off): each update either goes through or raises
    RuntimeError (PyO3's per-object borrow flag), and the state is never corrupted. Every chunk
    is the same 7 bytes (not a divisor of SHAKE256's 136-byte rate, so chunks straddle blocks),
    which makes the message independent of the order the updates ran in: the deterministic
    signature must verify over exactly as many chunks as went through."""
    key = mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bytes(range(32)))
    signer = key.signer(deterministic=True)
    chunk = b"chunk;\n"[:7]

    def feed(_):
        went, busy = 0, 0
        for _ in range(300):
            try:
                signer.update(chunk)
                went += 1
            except RuntimeError:
                busy += 1
        return went, busy

    with ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(feed, range(4)))
    went = sum(w for w, _ in counts)
    assert went + sum(b for _, b in counts) == 1200
    assert went > 0
    sig = signer.finalize()
    key.public_key().verify(sig, chunk * went)
    assert sig == key.sign(chunk * went, deterministic=True)
