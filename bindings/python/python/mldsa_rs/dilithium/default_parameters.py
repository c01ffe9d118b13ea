"""Round-3 parameter sets and the ready-made objects, as in dilithium-py."""

from .dilithium import Dilithium

DEFAULT_PARAMETERS = {
    "dilithium2": {"d": 13, "k": 4, "l": 4, "eta": 2, "tau": 39, "omega": 80,
                   "gamma_1": 131072, "gamma_2": 95232, "level": 2},
    "dilithium3": {"d": 13, "k": 6, "l": 5, "eta": 4, "tau": 49, "omega": 55,
                   "gamma_1": 524288, "gamma_2": 261888, "level": 3},
    "dilithium5": {"d": 13, "k": 8, "l": 7, "eta": 2, "tau": 60, "omega": 75,
                   "gamma_1": 524288, "gamma_2": 261888, "level": 5},
}

Dilithium2 = Dilithium(DEFAULT_PARAMETERS["dilithium2"])
Dilithium3 = Dilithium(DEFAULT_PARAMETERS["dilithium3"])
Dilithium5 = Dilithium(DEFAULT_PARAMETERS["dilithium5"])
