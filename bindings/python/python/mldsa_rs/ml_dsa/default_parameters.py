"""The parameter sets (FIPS 204 Table 1) and the ready-made objects, as in dilithium-py."""

from .hash_ml_dsa import HashML_DSA
from .ml_dsa import ML_DSA

DEFAULT_PARAMETERS = {
    "ML_DSA_44": {
        "d": 13, "tau": 39, "gamma_1": 131072, "gamma_2": 95232, "k": 4, "l": 4, "eta": 2,
        "omega": 80, "c_tilde_bytes": 32, "oid": (2, 16, 840, 1, 101, 3, 4, 3, 17), "level": 44,
    },
    "ML_DSA_65": {
        "d": 13, "tau": 49, "gamma_1": 524288, "gamma_2": 261888, "k": 6, "l": 5, "eta": 4,
        "omega": 55, "c_tilde_bytes": 48, "oid": (2, 16, 840, 1, 101, 3, 4, 3, 18), "level": 65,
    },
    "ML_DSA_87": {
        "d": 13, "tau": 60, "gamma_1": 524288, "gamma_2": 261888, "k": 8, "l": 7, "eta": 2,
        "omega": 75, "c_tilde_bytes": 64, "oid": (2, 16, 840, 1, 101, 3, 4, 3, 19), "level": 87,
    },
}
# dilithium-py also lists the HashML-DSA OIDs (2.16.840.1.101.3.4.3.32-34), though its
# HASH_ML_DSA_* objects are built from the pure parameter sets above.
for _n, _arc in ((44, 32), (65, 33), (87, 34)):
    DEFAULT_PARAMETERS[f"HASH_ML_DSA_{_n}_WITH_SHA512"] = dict(
        DEFAULT_PARAMETERS[f"ML_DSA_{_n}"], oid=(2, 16, 840, 1, 101, 3, 4, 3, _arc)
    )

ML_DSA_44 = ML_DSA(DEFAULT_PARAMETERS["ML_DSA_44"])
ML_DSA_65 = ML_DSA(DEFAULT_PARAMETERS["ML_DSA_65"])
ML_DSA_87 = ML_DSA(DEFAULT_PARAMETERS["ML_DSA_87"])

HASH_ML_DSA_44_WITH_SHA512 = HashML_DSA(DEFAULT_PARAMETERS["ML_DSA_44"])
HASH_ML_DSA_65_WITH_SHA512 = HashML_DSA(DEFAULT_PARAMETERS["ML_DSA_65"])
HASH_ML_DSA_87_WITH_SHA512 = HashML_DSA(DEFAULT_PARAMETERS["ML_DSA_87"])
