"""Round-3 parameter sets and the ready-made objects, as in dilithium-py."""

from .._params import ROUND3_NAMES, ROUND3_SETS
from .dilithium import Dilithium

# Copies: a caller changing these dicts changes neither the table nor the objects below.
DEFAULT_PARAMETERS = {ROUND3_NAMES[n]: dict(p) for n, p in ROUND3_SETS.items()}

Dilithium2 = Dilithium(DEFAULT_PARAMETERS["dilithium2"])
Dilithium3 = Dilithium(DEFAULT_PARAMETERS["dilithium3"])
Dilithium5 = Dilithium(DEFAULT_PARAMETERS["dilithium5"])
