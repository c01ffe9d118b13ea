"""The pyca/cryptography-style key classes.

>>> from mldsa_rs import MLDSA65PrivateKey, MLDSA65PublicKey, InvalidSignature
>>> key = MLDSA65PrivateKey.from_seed_bytes(bytes(32))
>>> sig = key.sign(b"message", context=b"app v1")
>>> pub = MLDSA65PublicKey.from_public_bytes(key.public_key().public_bytes_raw())
>>> pub.verify(sig, b"message", context=b"app v1")
>>> try:
...     pub.verify(sig, b"other message", context=b"app v1")
... except InvalidSignature:
...     print("rejected")
rejected
"""

from __future__ import annotations

import io
from typing import Any, BinaryIO, Iterable, Optional, Union

from ._dropin import byte_length
from ._native import (
    InvalidKey,
    InvalidSignature,
    LegacySigningKey,
    LegacyVerifyingKey,
    MuHasher,
    PreHasher,
    SigningKey,
    VerifyingKey,
)

Buffer = Union[bytes, bytearray, memoryview]
_ZERO_RND = bytes(32)
_FILE_CHUNK = 1 << 20


def _rnd(deterministic: bool, rnd: Optional[Buffer]) -> Optional[Buffer]:
    """The rnd to sign with: the caller's (checked by the Rust side), zeros when
    ``deterministic``, or None, for which the Rust side draws rnd from the operating system."""
    if rnd is None:
        return _ZERO_RND if deterministic else None
    if deterministic:
        raise ValueError("give rnd or deterministic=True, not both")
    return rnd


def _feed(hasher: Any, data: Union[Buffer, BinaryIO, Iterable[Buffer]]) -> None:
    """Feeds a bytes-like object, a binary file object, or an iterable of chunks."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        hasher.update(data)
    elif hasattr(data, "readinto") or hasattr(data, "read"):
        if isinstance(data, io.TextIOBase):
            raise TypeError("a binary file object is needed, not a text file")
        while True:
            chunk = data.read(_FILE_CHUNK)
            if not chunk:
                break
            hasher.update(chunk)
    else:
        for chunk in data:
            hasher.update(chunk)


class _Streaming:
    """Shared by the streaming signer and verifier: the message goes into mu (pure ML-DSA) or
    into the pre-hash (HashML-DSA) as it arrives."""

    def __init__(self, tr: bytes, context: Buffer, prehash: Optional[str]):
        self._prehash = prehash
        self._context = bytes(context)
        self._hasher = PreHasher(prehash) if prehash else MuHasher(tr, self._context)

    def update(self, data: Union[Buffer, BinaryIO, Iterable[Buffer]]) -> None:
        """Adds a chunk (bytes-like), every chunk of an iterable, or a whole binary file."""
        _feed(self._hasher, data)


class Signer(_Streaming):
    """Streaming signer: ``update()`` with chunks or files, then ``finalize()``."""

    def __init__(self, key: SigningKey, context: Buffer, rnd: Optional[Buffer], prehash: Optional[str]):
        if rnd is not None:
            # Checked and copied now, not when the whole message has been streamed.
            if byte_length("rnd", rnd) != 32:
                raise ValueError(f"rnd must be 32 bytes, got {byte_length('rnd', rnd)}")
            rnd = bytes(rnd)
        super().__init__(key.public_key().tr(), context, prehash)
        self._key = key
        self._rnd = rnd

    def finalize(self) -> bytes:
        """The signature of everything passed to ``update``."""
        rnd = self._rnd
        digest = self._hasher.finalize()
        if self._prehash:
            return self._key.sign_prehash(self._prehash, digest, self._context, rnd, True)
        return self._key.sign_mu(digest, rnd)


class Verifier(_Streaming):
    """Streaming verifier: ``update()`` with chunks or files, then ``verify()``."""

    def __init__(self, key: VerifyingKey, signature: Buffer, context: Buffer, prehash: Optional[str]):
        super().__init__(key.tr(), context, prehash)
        self._key = key
        self._signature = bytes(signature)

    def verify(self) -> None:
        """Raises ``InvalidSignature`` unless the signature covers everything passed."""
        digest = self._hasher.finalize()
        if self._prehash:
            ok = self._key.verify_prehash(self._prehash, digest, self._context, self._signature, True)
        else:
            ok = self._key.verify_mu(digest, self._signature)
        if not ok:
            raise InvalidSignature("signature verification failed")


class _ByValue:
    """Public keys: equal, hashed and pickled by parameter set and encoding."""

    __slots__ = ()
    _LEVEL = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _ByValue):
            return NotImplemented
        # Levels name the family too (44/65/87 ML-DSA, 2/3/5 Dilithium).
        return self._LEVEL == other._LEVEL and self.public_bytes_raw() == other.public_bytes_raw()

    def __hash__(self) -> int:
        return hash((self._LEVEL, self.public_bytes_raw()))

    def __reduce__(self):
        return (type(self).from_public_bytes, (self.public_bytes_raw(),))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.public_bytes_raw()[:8].hex()}...>"


class _NoPickle:
    """Private keys: never pickled (a pickle is an unprotected copy of the secret)."""

    __slots__ = ()

    def __reduce__(self):
        raise TypeError(
            f"{type(self).__name__} refuses to be pickled; export it explicitly (private_bytes)"
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


def _make(prefix: str, level: int, pub_base: type, priv_base: type):
    """The public and private classes of one parameter set."""
    pub = type(f"{prefix}{level}PublicKey", (pub_base,), {"_LEVEL": level, "__slots__": ()})
    priv = type(f"{prefix}{level}PrivateKey", (priv_base,), {"_LEVEL": level, "_PUBLIC": pub, "__slots__": ()})
    pub.__module__ = priv.__module__ = "mldsa_rs"
    return priv, pub


def _check_level(found: int, wanted: int, what: str) -> None:
    if found != wanted:
        raise InvalidKey(f"{what} holds an ML-DSA-{found} key, not ML-DSA-{wanted}")


class _MLDSAPublicKey(_ByValue):
    _LEVEL = 0
    __slots__ = ("_key",)

    def __init__(self, key: VerifyingKey):
        self._key = key

    @classmethod
    def from_public_bytes(cls, data: Buffer):
        """The FIPS 204 public key encoding (1312, 1952 or 2592 bytes)."""
        return cls(VerifyingKey.from_bytes(cls._LEVEL, data))

    @classmethod
    def from_pem(cls, data: Union[str, bytes]):
        """A SubjectPublicKeyInfo PEM document (``PUBLIC KEY``)."""
        key = VerifyingKey.from_spki(data)
        _check_level(key.level, cls._LEVEL, "the document")
        return cls(key)

    from_der = from_pem

    def public_bytes_raw(self) -> bytes:
        return self._key.to_bytes()

    def public_bytes(self, encoding: str = "PEM") -> bytes:
        """SubjectPublicKeyInfo, ``encoding`` "PEM" or "DER"."""
        if encoding.upper() == "PEM":
            return self._key.to_spki_pem().encode()
        if encoding.upper() == "DER":
            return self._key.to_spki_der()
        raise ValueError(f"encoding must be 'PEM' or 'DER', got {encoding!r}")

    def verify(self, signature: Buffer, data: Buffer, context: Buffer = b"", *, prehash: Optional[str] = None) -> None:
        """Raises ``InvalidSignature`` unless ``signature`` is valid for ``data``; ``prehash``
        names a HashML-DSA hash ("SHA2-512", "SHA3-256", "SHAKE-128", ...)."""
        if prehash:
            ok = self._key.verify_prehash(prehash, data, context, signature)
        else:
            ok = self._key.verify(data, context, signature)
        if not ok:
            raise InvalidSignature("signature verification failed")

    def verify_digest(self, signature: Buffer, digest: Buffer, prehash: str, context: Buffer = b"") -> None:
        """HashML-DSA verification of a digest made by the caller with ``prehash``."""
        if not self._key.verify_prehash(prehash, digest, context, signature, True):
            raise InvalidSignature("signature verification failed")

    def verify_mu(self, signature: Buffer, mu: Buffer) -> None:
        """Verification against an external mu (64 bytes)."""
        if not self._key.verify_mu(mu, signature):
            raise InvalidSignature("signature verification failed")

    def verify_internal(self, signature: Buffer, message: Buffer) -> None:
        """ML-DSA.Verify_internal (FIPS 204 Algorithm 8) on a caller-formatted M' (ACVP's
        internal interface): no context or domain separation is added."""
        if not self._key.verify_internal(message, signature):
            raise InvalidSignature("signature verification failed")

    def compute_mu(self, data: Buffer, context: Buffer = b"") -> bytes:
        """External mu = H(H(pk) || 0 || len(ctx) || ctx || data), 64 bytes."""
        return self._key.compute_mu(data, context)

    def verifier(self, signature: Buffer, context: Buffer = b"", *, prehash: Optional[str] = None) -> Verifier:
        """A streaming verifier for a message given in chunks or as a file."""
        return Verifier(self._key, signature, context, prehash)

    def prepared(self):
        """This key with the matrix A-hat expanded once: faster for many verifications."""
        return type(self)(self._key.prepared())



class _MLDSAPrivateKey(_NoPickle):
    _LEVEL = 0
    _PUBLIC: type = _MLDSAPublicKey
    __slots__ = ("_key",)

    def __init__(self, key: SigningKey):
        self._key = key

    @classmethod
    def generate(cls):
        """A new key from the operating system's randomness."""
        return cls(SigningKey.generate(cls._LEVEL))

    @classmethod
    def from_seed_bytes(cls, data: Buffer):
        """The key KeyGen makes from the 32-byte seed xi."""
        return cls(SigningKey.from_seed(cls._LEVEL, data))

    @classmethod
    def from_expanded_bytes(cls, data: Buffer, *, check: bool = True):
        """The FIPS 204 expanded private key; ``check`` rejects inconsistent keys."""
        return cls(SigningKey.from_expanded(cls._LEVEL, data, check))

    @classmethod
    def from_pem(cls, data: Union[str, bytes], password: Optional[Buffer] = None):
        """A PKCS#8 document, PEM or DER, any form; encrypted ones need ``password``."""
        key, _form = SigningKey.from_pkcs8(data, password)
        _check_level(key.level, cls._LEVEL, "the document")
        return cls(key)

    from_der = from_pem

    def public_key(self):
        return self._PUBLIC(self._key.public_key())

    def private_bytes_raw(self) -> bytes:
        """The 32-byte seed (as pyca/cryptography); keys without one raise ``ValueError``."""
        seed = self._key.seed()
        if seed is None:
            raise ValueError("this key was imported without its seed; use expanded_bytes()")
        return seed

    def expanded_bytes(self) -> bytes:
        """The FIPS 204 expanded private key encoding."""
        return self._key.expanded()

    def private_bytes(self, encoding: str = "PEM", form: str = "seed", password: Optional[Buffer] = None) -> bytes:
        """PKCS#8 in ``form`` ("seed", "expanded" or "both"), encrypted with scrypt and
        AES-256-CBC under ``password`` if given; ``encoding`` "PEM" or "DER"."""
        if encoding.upper() == "PEM":
            return self._key.to_pkcs8_pem(form, password).encode()
        if encoding.upper() == "DER":
            return self._key.to_pkcs8_der(form, password)
        raise ValueError(f"encoding must be 'PEM' or 'DER', got {encoding!r}")

    # Every signing method is hedged with fresh OS randomness by default; ``deterministic=True``
    # signs with rnd = 32 zero bytes, and ``rnd=`` with the caller's 32 bytes (ACVP's hedged
    # cases, or a DRBG's output).

    def sign(self, data: Buffer, context: Buffer = b"", *, deterministic: bool = False,
             prehash: Optional[str] = None, rnd: Optional[Buffer] = None) -> bytes:
        """ML-DSA (or with ``prehash``, HashML-DSA) signature."""
        if prehash:
            return self._key.sign_prehash(prehash, data, context, _rnd(deterministic, rnd))
        return self._key.sign(data, context, _rnd(deterministic, rnd))

    def sign_digest(self, digest: Buffer, prehash: str, context: Buffer = b"", *,
                    deterministic: bool = False, rnd: Optional[Buffer] = None) -> bytes:
        """HashML-DSA signature of a digest the caller made with ``prehash``."""
        return self._key.sign_prehash(prehash, digest, context, _rnd(deterministic, rnd), True)

    def sign_mu(self, mu: Buffer, *, deterministic: bool = False, rnd: Optional[Buffer] = None) -> bytes:
        """Signature of an external mu (64 bytes, see ``compute_mu``)."""
        return self._key.sign_mu(mu, _rnd(deterministic, rnd))

    def sign_internal(self, message: Buffer, *, deterministic: bool = False, rnd: Optional[Buffer] = None) -> bytes:
        """ML-DSA.Sign_internal (FIPS 204 Algorithm 7) on a caller-formatted M' (ACVP's
        internal interface): no context or domain separation is added."""
        return self._key.sign_internal(message, _rnd(deterministic, rnd))

    def signer(self, context: Buffer = b"", *, deterministic: bool = False,
               prehash: Optional[str] = None, rnd: Optional[Buffer] = None) -> Signer:
        """A streaming signer for a message given in chunks or as a file."""
        return Signer(self._key, context, _rnd(deterministic, rnd), prehash)

    def prepared(self):
        """This key with the public matrix A-hat kept: faster for many signatures."""
        return type(self)(self._key.prepared())



MLDSA44PrivateKey, MLDSA44PublicKey = _make("MLDSA", 44, _MLDSAPublicKey, _MLDSAPrivateKey)
MLDSA65PrivateKey, MLDSA65PublicKey = _make("MLDSA", 65, _MLDSAPublicKey, _MLDSAPrivateKey)
MLDSA87PrivateKey, MLDSA87PublicKey = _make("MLDSA", 87, _MLDSAPublicKey, _MLDSAPrivateKey)
_PRIVATE = {44: MLDSA44PrivateKey, 65: MLDSA65PrivateKey, 87: MLDSA87PrivateKey}
_PUBLIC = {44: MLDSA44PublicKey, 65: MLDSA65PublicKey, 87: MLDSA87PublicKey}


def load_private_key(data: Union[str, bytes], password: Optional[Buffer] = None):
    """A PKCS#8 private key (PEM or DER, plain or encrypted) of whichever ML-DSA set it holds."""
    key, _form = SigningKey.from_pkcs8(data, password)
    return _PRIVATE[key.level](key)


def load_public_key(data: Union[str, bytes]):
    """A SubjectPublicKeyInfo public key (PEM or DER) of whichever ML-DSA set it holds."""
    key = VerifyingKey.from_spki(data)
    return _PUBLIC[key.level](key)


# --- the legacy family: CRYSTALS-Dilithium round 3 (v3.1) ----------------------------------


class _DilithiumPublicKey(_ByValue):
    _LEVEL = 0
    __slots__ = ("_key",)

    def __init__(self, key: LegacyVerifyingKey):
        self._key = key

    @classmethod
    def from_public_bytes(cls, data: Buffer):
        return cls(LegacyVerifyingKey.from_bytes(cls._LEVEL, data))

    def public_bytes_raw(self) -> bytes:
        return self._key.to_bytes()

    def verify(self, signature: Buffer, data: Buffer) -> None:
        """Raises ``InvalidSignature`` unless ``signature`` is valid for ``data``."""
        if not self._key.verify(data, signature):
            raise InvalidSignature("signature verification failed")



class _DilithiumPrivateKey(_NoPickle):
    _LEVEL = 0
    _PUBLIC: type = _DilithiumPublicKey
    __slots__ = ("_key",)

    def __init__(self, key: LegacySigningKey):
        self._key = key

    @classmethod
    def generate(cls):
        import os

        return cls.from_seed_bytes(os.urandom(32))

    @classmethod
    def from_seed_bytes(cls, data: Buffer):
        """The key the reference KeyGen makes from the 32-byte seed."""
        return cls(LegacySigningKey.from_seed(cls._LEVEL, data))

    @classmethod
    def from_private_bytes(cls, data: Buffer, *, check: bool = True):
        """The round-3 secret key encoding."""
        return cls(LegacySigningKey.from_bytes(cls._LEVEL, data, check))

    def private_bytes_raw(self) -> bytes:
        """The round-3 secret key encoding."""
        return self._key.to_bytes()

    def public_key(self):
        return self._PUBLIC(self._key.public_key())

    def sign(self, data: Buffer, *, randomized: bool = False) -> bytes:
        """Deterministic round-3 signature (randomized with OS randomness if asked)."""
        return self._key.sign(data, randomized)



Dilithium2PrivateKey, Dilithium2PublicKey = _make("Dilithium", 2, _DilithiumPublicKey, _DilithiumPrivateKey)
Dilithium3PrivateKey, Dilithium3PublicKey = _make("Dilithium", 3, _DilithiumPublicKey, _DilithiumPrivateKey)
Dilithium5PrivateKey, Dilithium5PublicKey = _make("Dilithium", 5, _DilithiumPublicKey, _DilithiumPrivateKey)
