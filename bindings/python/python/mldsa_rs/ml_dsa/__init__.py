"""dilithium-py's ``dilithium_py.ml_dsa``: change only the import line."""

from .default_parameters import (
    HASH_ML_DSA_44_WITH_SHA512,
    HASH_ML_DSA_65_WITH_SHA512,
    HASH_ML_DSA_87_WITH_SHA512,
    ML_DSA_44,
    ML_DSA_65,
    ML_DSA_87,
)

__all__ = [
    "ML_DSA_44",
    "ML_DSA_65",
    "ML_DSA_87",
    "HASH_ML_DSA_44_WITH_SHA512",
    "HASH_ML_DSA_65_WITH_SHA512",
    "HASH_ML_DSA_87_WITH_SHA512",
]
