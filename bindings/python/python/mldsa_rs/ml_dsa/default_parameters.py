"""The parameter sets (FIPS 204 Table 1) and the ready-made objects, as in dilithium-py."""

from .._params import ML_DSA_NAMES, ML_DSA_SETS, oid
from .hash_ml_dsa import HashML_DSA
from .ml_dsa import ML_DSA

# Copies of the table (a caller changing these dicts changes neither the table nor the objects
# below), with the OIDs. As in dilithium-py, the HASH_ML_DSA_* entries carry the HashML-DSA
# OIDs (2.16.840.1.101.3.4.3.32-34) while its HASH_ML_DSA_* objects are built from the pure
# entries.
DEFAULT_PARAMETERS = {ML_DSA_NAMES[n]: dict(p, oid=oid(n)) for n, p in ML_DSA_SETS.items()}
for _n, _p in ML_DSA_SETS.items():
    DEFAULT_PARAMETERS[f"HASH_ML_DSA_{_n}_WITH_SHA512"] = dict(_p, oid=oid(_n, True))

ML_DSA_44 = ML_DSA(DEFAULT_PARAMETERS["ML_DSA_44"])
ML_DSA_65 = ML_DSA(DEFAULT_PARAMETERS["ML_DSA_65"])
ML_DSA_87 = ML_DSA(DEFAULT_PARAMETERS["ML_DSA_87"])

HASH_ML_DSA_44_WITH_SHA512 = HashML_DSA(DEFAULT_PARAMETERS["ML_DSA_44"])
HASH_ML_DSA_65_WITH_SHA512 = HashML_DSA(DEFAULT_PARAMETERS["ML_DSA_65"])
HASH_ML_DSA_87_WITH_SHA512 = HashML_DSA(DEFAULT_PARAMETERS["ML_DSA_87"])
