"""Shared fixtures: where the test vectors are, and the per-set classes."""

import os
from pathlib import Path

import pytest

import mldsa_rs
from mldsa_rs.ml_dsa.default_parameters import DEFAULT_PARAMETERS
from mldsa_rs.ml_dsa.ml_dsa import ML_DSA
from mldsa_rs.ml_dsa.hash_ml_dsa import HashML_DSA

LEVELS = (44, 65, 87)
PRIVATE = {44: mldsa_rs.MLDSA44PrivateKey, 65: mldsa_rs.MLDSA65PrivateKey, 87: mldsa_rs.MLDSA87PrivateKey}
PUBLIC = {44: mldsa_rs.MLDSA44PublicKey, 65: mldsa_rs.MLDSA65PublicKey, 87: mldsa_rs.MLDSA87PublicKey}
SIZES = {44: (1312, 2560, 2420), 65: (1952, 4032, 3309), 87: (2592, 4896, 4627)}


def fresh_ml_dsa(level, hashed=False):
    """A private drop-in object, so tests that swap its entropy source touch no global."""
    cls = HashML_DSA if hashed else ML_DSA
    return cls(DEFAULT_PARAMETERS[f"ML_DSA_{level}"])


def vectors_dir():
    """`../shared/vectors` beside the repository (or $MLDSA_VECTORS)."""
    env = os.environ.get("MLDSA_VECTORS")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[3]
    return repo.parent / "shared" / "vectors"


@pytest.fixture(scope="session")
def vectors():
    d = vectors_dir()
    if not d.is_dir():
        pytest.skip(f"test vectors not found at {d} (set MLDSA_VECTORS)")
    return d


def parse_entries(text):
    """`key = value` blocks separated by blank lines (the KAT .rsp / .kat layout)."""
    entries, cur = [], {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            if cur:
                entries.append(cur)
                cur = {}
            continue
        k, _, v = line.partition("=")
        cur[k.strip()] = v.strip()
    if cur:
        entries.append(cur)
    return entries
