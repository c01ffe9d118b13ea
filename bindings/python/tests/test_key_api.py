"""The pyca-style key API: generation, export and import in every form, HashML-DSA by name,
external mu, streaming, prepared keys, the legacy family, pickling and equality."""

import hashlib
import io
import pickle

import pytest

from conftest import LEVELS, PRIVATE, PUBLIC, SIZES
import mldsa_rs
from mldsa_rs import InvalidKey, InvalidSignature

HASHES = ["SHA2-224", "SHA2-256", "SHA2-384", "SHA2-512", "SHA2-512/224", "SHA2-512/256",
          "SHA3-224", "SHA3-256", "SHA3-384", "SHA3-512", "SHAKE-128", "SHAKE-256"]
HASHLIB = {"SHA2-256": lambda m: hashlib.sha256(m).digest(), "SHA3-384": lambda m: hashlib.sha3_384(m).digest(),
           "SHAKE-128": lambda m: hashlib.shake_128(m).digest(32), "SHAKE-256": lambda m: hashlib.shake_256(m).digest(64)}


@pytest.mark.parametrize("level", LEVELS)
def test_roundtrip_and_sizes(level):
    key = PRIVATE[level].generate()
    pk_len, sk_len, sig_len = SIZES[level]
    pub = key.public_key()
    assert len(pub.public_bytes_raw()) == pk_len
    assert len(key.expanded_bytes()) == sk_len
    sig = key.sign(b"msg")
    assert len(sig) == sig_len
    pub.verify(sig, b"msg")
    assert key.sign(b"msg", deterministic=True) == key.sign(b"msg", deterministic=True)
    assert key.sign(b"msg") != key.sign(b"msg")  # hedged
    with pytest.raises(InvalidSignature):
        pub.verify(sig, b"msg", b"ctx")


@pytest.mark.parametrize("level", LEVELS)
def test_pkcs8_all_forms_and_encrypted(level):
    key = PRIVATE[level].from_seed_bytes(bytes(range(32)))
    for form in ("seed", "expanded", "both"):
        for enc in ("PEM", "DER"):
            doc = key.private_bytes(enc, form)
            back = PRIVATE[level].from_pem(doc)
            assert back.expanded_bytes() == key.expanded_bytes()
            if form == "expanded":
                with pytest.raises(ValueError):
                    back.private_bytes_raw()
            else:
                assert back.private_bytes_raw() == bytes(range(32))
            locked = key.private_bytes(enc, form, password=b"correct horse")
            assert mldsa_rs.load_private_key(locked, b"correct horse").expanded_bytes() == key.expanded_bytes()
            # Usually "could not decrypt"; about 1 in 256 wrong passwords leave valid CBC padding
            # and then the decrypted bytes fail to parse instead. InvalidKey either way.
            with pytest.raises(InvalidKey):
                mldsa_rs.load_private_key(locked, b"wrong")
            with pytest.raises(InvalidKey):
                mldsa_rs.load_private_key(locked)
    other = PRIVATE[44 if level != 44 else 65]
    with pytest.raises(InvalidKey, match="ML-DSA"):
        other.from_pem(key.private_bytes())
    with pytest.raises(InvalidKey):
        PUBLIC[44 if level != 44 else 65].from_pem(key.public_key().public_bytes())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("name", HASHES)
def test_hashml_dsa_by_name(level, name):
    key = PRIVATE[level].from_seed_bytes(bytes(32))
    pub = key.public_key()
    sig = key.sign(b"data", b"c", prehash=name)
    pub.verify(sig, b"data", b"c", prehash=name)
    with pytest.raises(InvalidSignature):
        pub.verify(sig, b"data", b"c")  # not a pure signature
    if name in HASHLIB:
        digest = HASHLIB[name](b"data")
        pub.verify_digest(sig, digest, name, b"c")
        pub.verify(key.sign_digest(digest, name, b"c"), b"data", b"c", prehash=name)
    s = key.signer(b"c", prehash=name, deterministic=True)
    s.update(b"da")
    s.update(b"ta")
    assert s.finalize() == key.sign(b"data", b"c", prehash=name, deterministic=True)


def test_streaming_chunks_files_and_iterables():
    key = mldsa_rs.MLDSA65PrivateKey.from_seed_bytes(bytes(32))
    data = bytes(range(256)) * 5000
    whole = key.sign(data, b"ctx", deterministic=True)
    s = key.signer(b"ctx", deterministic=True)
    s.update(io.BytesIO(data))
    assert s.finalize() == whole
    s = key.signer(b"ctx", deterministic=True)
    s.update(data[i:i + 1000] for i in range(0, len(data), 1000))
    assert s.finalize() == whole
    v = key.public_key().verifier(whole, b"ctx")
    v.update(memoryview(data))
    v.verify()
    v = key.public_key().verifier(whole, b"ctx")
    v.update(bytearray(data[:-1]))
    with pytest.raises(InvalidSignature):
        v.verify()
    with pytest.raises(TypeError):
        key.signer().update(io.StringIO("text"))


def test_buffer_types_agree():
    import array

    key = mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    data = bytes(range(256)) * 3000  # larger than one internal chunk
    want = key.sign(data, deterministic=True)
    for form in (bytearray(data), memoryview(data), array.array("B", data), memoryview(data)[::1]):
        assert key.sign(form, deterministic=True) == want
        key.public_key().verify(want, form)
    assert key.sign(memoryview(data + b"x")[:-1], deterministic=True) == want
    assert key.sign(memoryview(bytes(2 * len(data)))[::2], deterministic=True) == key.sign(bytes(len(data)), deterministic=True)
    try:
        import numpy as np
    except ImportError:
        return
    assert key.sign(np.frombuffer(data, dtype=np.uint8), deterministic=True) == want


def test_external_mu_and_prepared():
    key = mldsa_rs.MLDSA87PrivateKey.from_seed_bytes(bytes(32))
    pub = key.public_key()
    mu = pub.compute_mu(b"m", b"c")
    assert key.sign_mu(mu, deterministic=True) == key.sign(b"m", b"c", deterministic=True)
    fast, fast_pub = key.prepared(), pub.prepared()
    assert fast.sign(b"m", deterministic=True) == key.sign(b"m", deterministic=True)
    fast_pub.verify(key.sign(b"m"), b"m")
    assert fast_pub == pub and hash(fast_pub) == hash(pub)


def test_pickle_and_equality():
    key = mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bytes(32))
    pub = key.public_key()
    assert pickle.loads(pickle.dumps(pub)) == pub
    assert pub == mldsa_rs.MLDSA44PublicKey.from_public_bytes(pub.public_bytes_raw())
    assert pub != mldsa_rs.MLDSA44PrivateKey.from_seed_bytes(bytes([1]) * 32).public_key()
    sig = key.sign(b"x")
    assert pickle.loads(pickle.dumps(sig)) == sig
    for k in (key, mldsa_rs.Dilithium2PrivateKey.from_seed_bytes(bytes(32))):
        with pytest.raises(TypeError, match="pickled"):
            pickle.dumps(k)
    assert "seed" not in repr(key) and bytes(32).hex() not in repr(key)


@pytest.mark.parametrize("cls", [mldsa_rs.Dilithium2PrivateKey, mldsa_rs.Dilithium3PrivateKey, mldsa_rs.Dilithium5PrivateKey])
def test_legacy_family(cls):
    key = cls.generate()
    pub = key.public_key()
    sig = key.sign(b"msg")
    assert sig == key.sign(b"msg")  # round 3 signs deterministically
    pub.verify(sig, b"msg")
    pub.verify(key.sign(b"msg", randomized=True), b"msg")
    with pytest.raises(InvalidSignature):
        pub.verify(sig, b"msh")
    again = cls.from_private_bytes(key.private_bytes_raw())
    assert again.public_key() == pub
    assert pickle.loads(pickle.dumps(pub)) == pub
