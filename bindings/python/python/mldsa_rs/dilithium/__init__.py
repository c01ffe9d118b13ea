"""dilithium-py's ``dilithium_py.dilithium`` (CRYSTALS-Dilithium round 3, v3.1)."""

from .default_parameters import Dilithium2, Dilithium3, Dilithium5

__all__ = ["Dilithium2", "Dilithium3", "Dilithium5"]
