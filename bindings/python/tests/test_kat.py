"""The reference implementation's KATs (ML-DSA nistkat and itzmeanjan files) and the
round-3 Dilithium KATs, through the dilithium-py drop-in (its DRBG pattern, unchanged) and the
key API."""

import pytest

from conftest import PRIVATE, PUBLIC, fresh_ml_dsa, parse_entries
import mldsa_rs
from mldsa_rs.dilithium.default_parameters import DEFAULT_PARAMETERS as R3_PARAMS
from mldsa_rs.dilithium.dilithium import Dilithium
from mldsa_rs.drbg.aes256_ctr_drbg import AES256_CTR_DRBG

LEGACY = {2: mldsa_rs.Dilithium2PrivateKey, 3: mldsa_rs.Dilithium3PrivateKey, 5: mldsa_rs.Dilithium5PrivateKey}


@pytest.mark.parametrize("level", [44, 65, 87])
def test_nistkat(vectors, level):
    entries = parse_entries((vectors / "ml-dsa-ref-kat/pq-crystals-nistkat" / f"PQCsignKAT_ML-DSA-{level}.rsp").read_text())
    assert len(entries) == 100
    main = AES256_CTR_DRBG(bytes(range(48)))
    for count, e in enumerate(entries):
        # The harness's main DRBG gives each entry's seed and message.
        assert main.random_bytes(48).hex().upper() == e["seed"]
        msg = main.random_bytes(33 * (count + 1))
        assert msg.hex().upper() == e["msg"]
        # A KAT script written for dilithium-py, with only the import changed.
        m = fresh_ml_dsa(level)
        m.set_drbg_seed(bytes.fromhex(e["seed"]))
        pk, sk = m.keygen()
        sig = m.sign(sk, msg)
        assert pk.hex().upper() == e["pk"] and sk.hex().upper() == e["sk"]
        assert (sig + msg).hex().upper() == e["sm"]
        assert m.verify(pk, msg, sig)
        PUBLIC[level].from_public_bytes(pk).verify(sig, msg)


@pytest.mark.parametrize("level", [44, 65, 87])
def test_itzmeanjan(vectors, level):
    entries = parse_entries((vectors / "ml-dsa-ref-kat/itzmeanjan-ml-dsa" / f"ml_dsa_{level}.kat").read_text())
    assert len(entries) == 100
    for e in entries:
        h = {k: bytes.fromhex(v) for k, v in e.items() if k not in ("mlen", "ctx_len")}
        m = fresh_ml_dsa(level)
        pk, sk = m.key_derive(h["seed"])
        assert (pk, sk) == (h["pkey"], h["skey"])
        m_prime = bytes([0, len(h["ctx"])]) + h["ctx"] + h["msg"]
        assert m._sign_internal(sk, m_prime, h["rnd"]) == h["sig"]
        m.random_bytes = lambda n: h["rnd"]
        assert m.sign(sk, h["msg"], h["ctx"]) == h["sig"]
        key = PRIVATE[level].from_seed_bytes(h["seed"])
        assert key._key.sign(h["msg"], h["ctx"], h["rnd"]) == h["sig"]
        key.public_key().verify(h["sig"], h["msg"], h["ctx"])


@pytest.mark.parametrize("level", [2, 3, 5])
def test_round3(vectors, level):
    entries = parse_entries((vectors / "dilithium-round3" / f"PQCsignKAT_Dilithium{level}.rsp").read_text())
    assert len(entries) == 100
    for e in entries:
        seed = bytes.fromhex(e["seed"])
        msg = bytes.fromhex(e["msg"])
        d = Dilithium(R3_PARAMS[f"dilithium{level}"])
        d.set_drbg_seed(seed)
        pk, sk = d.keygen()
        sig = d.sign(sk, msg)
        assert pk.hex().upper() == e["pk"] and sk.hex().upper() == e["sk"]
        assert (sig + msg).hex().upper() == e["sm"]
        assert d.verify(pk, msg, sig)
        key = LEGACY[level].from_seed_bytes(AES256_CTR_DRBG(seed).random_bytes(32))
        assert key.private_bytes_raw() == sk
        assert key.sign(msg) == sig
        key.public_key().verify(sig, msg)
