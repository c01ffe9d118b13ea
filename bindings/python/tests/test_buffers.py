"""Large messages in every bytes-like form: the same signatures as from bytes, and no copy of
the whole message (tracemalloc sees every allocation CPython and numpy make)."""

import array
import threading
import tracemalloc

import pytest

import mldsa_rs
from conftest import fresh_ml_dsa

BIG = 16 << 20  # 16 MiB: 64 pieces
PIECE_LIMIT = 2 << 20  # far below BIG: one 256 KiB piece plus the interpreter's own noise


def pattern(size):
    # Not all zeros, so a piece read at the wrong offset would change the signature.
    return bytes(range(256)) * (size // 256)


@pytest.fixture(scope="module")
def big():
    return pattern(BIG)


@pytest.fixture(scope="module")
def key():
    return mldsa_rs.MLDSA65PrivateKey.from_seed_bytes(bytes(range(32)))


def peak_while(fn):
    """fn's result and the peak of memory allocated while it ran (beyond what was there)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak - before


def forms(data):
    """The same bytes as every kind of buffer the package accepts."""
    out = {
        "bytearray": bytearray(data),
        "memoryview(bytes)": memoryview(data),
        "memoryview(bytearray)": memoryview(bytearray(data)),
        "array('B')": array.array("B", data),
        "memoryview cast to 'I'": memoryview(bytearray(data)).cast("I"),
    }
    try:
        import numpy as np
    except ImportError:
        return out
    out["numpy uint8"] = np.frombuffer(data, dtype=np.uint8).copy()
    return out


def test_large_buffers_sign_and_verify_as_bytes(big, key):
    want = key.sign(big, b"ctx", deterministic=True)
    pub = key.public_key()
    pub.verify(want, big, b"ctx")
    for name, form in forms(big).items():
        sig, peak = peak_while(lambda: key.sign(form, b"ctx", deterministic=True))
        assert sig == want, name
        assert peak < PIECE_LIMIT, f"{name}: {peak} bytes allocated while signing"
        _, peak = peak_while(lambda: pub.verify(want, form, b"ctx"))
        assert peak < PIECE_LIMIT, f"{name}: {peak} bytes allocated while verifying"
    with pytest.raises(mldsa_rs.InvalidSignature):
        pub.verify(want, bytearray(big[:-1]) + b"!", b"ctx")


def test_64_mib_memoryview_is_not_copied(key):
    data = bytearray(pattern(64 << 20))
    view = memoryview(data)
    sig, peak = peak_while(lambda: key.sign(view, deterministic=True))
    assert peak < PIECE_LIMIT, f"{peak} bytes allocated signing a 64 MiB memoryview"
    assert sig == key.sign(bytes(data), deterministic=True)
    _, peak = peak_while(lambda: key.public_key().verify(sig, view))
    assert peak < PIECE_LIMIT, f"{peak} bytes allocated verifying a 64 MiB memoryview"


def test_large_bytes_are_read_in_place(big, key):
    # Not even one piece is copied: bytes cannot change, so they are hashed where they lie.
    sig, peak = peak_while(lambda: key.sign(big, deterministic=True))
    assert peak < 64 << 10, f"{peak} bytes allocated signing a bytes message"
    key.public_key().verify(sig, big)


def test_large_buffers_through_the_other_paths(big, key):
    """HashML-DSA, external mu, the streaming signer and the dilithium-py drop-in read
    buffers the same way."""
    pub = key.public_key()
    view = memoryview(bytearray(big))
    want = key.sign(big, prehash="SHAKE-256", deterministic=True)
    sig, peak = peak_while(lambda: key.sign(view, prehash="SHAKE-256", deterministic=True))
    assert sig == want and peak < PIECE_LIMIT
    mu, peak = peak_while(lambda: pub.compute_mu(view, b"c"))
    assert mu == pub.compute_mu(big, b"c") and peak < PIECE_LIMIT
    signer = key.signer(b"c", deterministic=True)
    _, peak = peak_while(lambda: signer.update(view))
    assert signer.finalize() == key.sign(big, b"c", deterministic=True) and peak < PIECE_LIMIT

    ml_dsa = fresh_ml_dsa(65)
    pk, sk = ml_dsa.key_derive(bytes(range(32)))
    want = ml_dsa.sign(sk, big, ctx=b"c", deterministic=True)
    sig, peak = peak_while(lambda: ml_dsa.sign(sk, view, ctx=b"c", deterministic=True))
    assert sig == want and peak < PIECE_LIMIT
    ok, peak = peak_while(lambda: ml_dsa.verify(pk, view, sig, ctx=b"c"))
    assert ok and peak < PIECE_LIMIT


def test_buffer_written_while_signing(key):
    """Another thread writing the buffer while it is hashed: each piece is copied under the
    GIL, so signing runs to the end and returns a signature (of some state of the buffer: which
    one is the caller's race); once the writer stops, signing and verifying agree again."""
    buf = bytearray(8 << 20)
    stop = threading.Event()

    def writer():
        i = 0
        while not stop.is_set():
            buf[(i * 4099) % len(buf)] = i & 0xFF
            i += 1

    t = threading.Thread(target=writer)
    t.start()
    try:
        sigs = [key.sign(buf) for _ in range(4)]
    finally:
        stop.set()
        t.join()
    assert [len(s) for s in sigs] == [3309] * 4
    key.public_key().verify(key.sign(buf), buf)
