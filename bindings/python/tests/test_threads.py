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
