"""Regenerates the peer-made test data in this folder with pyca/cryptography.

    pip install --target /tmp/pyd 'cryptography==50.0.2'
    PYTHONPATH=/tmp/pyd python3 gen_cryptography.py

cryptography's wheels bundle their own OpenSSL (4.0.3 for 50.0.2), whose ML-DSA encoders write
RFC 9881 keys: PKCS#8 with the private key in the `seed` form, SubjectPublicKeyInfo with the raw
public key. The encrypted files are PBES2 (PBKDF2-HMAC-SHA256, AES-256-CBC), as
`openssl genpkey -aes256` makes them. Nothing here uses our crate.
"""

from cryptography.hazmat.primitives import serialization as s
from cryptography.hazmat.primitives.asymmetric import mldsa

SETS = {44: mldsa.MLDSA44PrivateKey, 65: mldsa.MLDSA65PrivateKey, 87: mldsa.MLDSA87PrivateKey}
# RFC 9881's example seed 00 01 .. 1f ("rfc"), and ff fe .. e0 ("ff") so that not every key
# starts from the same bytes. The tests rebuild both seeds from these definitions.
SEEDS = {"rfc": bytes(range(32)), "ff": bytes([0xFF - i for i in range(32)])}
PASSWORD = b"correct horse battery staple"


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


for n, cls in SETS.items():
    for tag, seed in SEEDS.items():
        sk = cls.from_seed_bytes(seed)
        base = f"mldsa{n}-{tag}"
        write(f"{base}.priv.der", sk.private_bytes(s.Encoding.DER, s.PrivateFormat.PKCS8, s.NoEncryption()))
        write(f"{base}.priv.pem", sk.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption()))
        pk = sk.public_key()
        write(f"{base}.pub.der", pk.public_bytes(s.Encoding.DER, s.PublicFormat.SubjectPublicKeyInfo))
        write(f"{base}.pub.pem", pk.public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))

# Password-encrypted PKCS#8 (RFC 5958 EncryptedPrivateKeyInfo, PBES2).
sk = SETS[65].from_seed_bytes(SEEDS["rfc"])
enc = s.BestAvailableEncryption(PASSWORD)
write("mldsa65-rfc.priv.enc.pem", sk.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, enc))
write("mldsa65-rfc.priv.enc.der", sk.private_bytes(s.Encoding.DER, s.PrivateFormat.PKCS8, enc))
