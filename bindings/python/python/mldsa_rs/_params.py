"""The parameter sets the drop-in knows, and the check of a dict given to ``ML_DSA(...)``,
``HashML_DSA(...)`` or ``Dilithium(...)``.

dilithium-py builds an object from whatever dict it is given, and its arithmetic follows the
dict. The Rust core implements exactly FIPS 204's three sets (and round 3's three), chosen by a
level, so a dict is accepted only when it is one of dilithium-py's own dicts, value for value:
anything else is refused with what differs, rather than some parameters being used and others
silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

# FIPS 204 Table 1, in dilithium-py's key order. Round 3 (v3.1) has the same numbers for
# Dilithium2/3/5, with a c-tilde of 32 bytes in every set (so no c_tilde_bytes entry).
_TABLE = {
    44: {"d": 13, "tau": 39, "gamma_1": 131072, "gamma_2": 95232, "k": 4, "l": 4, "eta": 2, "omega": 80},
    65: {"d": 13, "tau": 49, "gamma_1": 524288, "gamma_2": 261888, "k": 6, "l": 5, "eta": 4, "omega": 55},
    87: {"d": 13, "tau": 60, "gamma_1": 524288, "gamma_2": 261888, "k": 8, "l": 7, "eta": 2, "omega": 75},
}
_C_TILDE_BYTES = {44: 32, 65: 48, 87: 64}
# 2.16.840.1.101.3.4.3.x: ML-DSA (17-19) and HashML-DSA with SHA-512 (32-34).
_OID_ARCS = {44: (17, 32), 65: (18, 33), 87: (19, 34)}
_NIST_SIG = (2, 16, 840, 1, 101, 3, 4, 3)

ML_DSA_SETS = {n: dict(p, c_tilde_bytes=_C_TILDE_BYTES[n]) for n, p in _TABLE.items()}
ROUND3_SETS = {2: _TABLE[44], 3: _TABLE[65], 5: _TABLE[87]}
ML_DSA_NAMES = {n: f"ML_DSA_{n}" for n in _TABLE}
ROUND3_NAMES = {n: f"dilithium{n}" for n in ROUND3_SETS}


def oid(level: int, hashed: bool = False) -> tuple[int, ...]:
    """The OID of ML-DSA (or HashML-DSA with SHA-512) at ``level``."""
    return _NIST_SIG + (_OID_ARCS[level][hashed],)


def _same(given: Any, wanted: int) -> bool:
    # 13.0 or "13" is not 13: dilithium-py would fail on them later, or compute with them.
    return isinstance(given, int) and not isinstance(given, bool) and given == wanted


def _level(params: Mapping, sets: dict, names: dict, optional: tuple[str, ...]) -> int:
    required = set(next(iter(sets.values())))

    def differences(level: int) -> list[str]:
        wanted = sets[level].items()
        return [f"{k}={params[k]!r} (not {v})" for k, v in wanted if k in params and not _same(params[k], v)]

    nearest = min(sets, key=lambda level: len(differences(level)))
    # Every problem at once, so one correction is enough.
    unknown = sorted(repr(k) for k in params if k not in required and k not in optional)
    missing = sorted(repr(k) for k in required if k not in params)
    problems = []
    if unknown:
        problems.append(f"unknown parameter {', '.join(unknown)} (every parameter is used, none ignored)")
    if missing:
        problems.append(f"missing parameter {', '.join(missing)}")
    if differences(nearest):
        problems.append(f"it differs from {names[nearest]} in {', '.join(differences(nearest))}")
    if problems:
        family = ", ".join(names.values())
        what = f"parameter_set is not one of dilithium-py's parameter sets ({family})"
        raise ValueError(f"{what}: {'; '.join(problems)}")
    return nearest


def _mapping(params: Any) -> Mapping:
    if not isinstance(params, Mapping):
        raise TypeError(
            "parameter_set must be a dict of parameters, such as "
            f"DEFAULT_PARAMETERS['ML_DSA_44'], not {type(params).__name__}"
        )
    return params


def ml_dsa_level(params: Any) -> tuple[int, Optional[tuple[int, ...]]]:
    """The level (44, 65 or 87) of an ML-DSA parameter dict, and its OID (None when the dict
    has none, as dilithium-py allows: such an object signs but cannot be encoded)."""
    level = _level(_mapping(params), ML_DSA_SETS, ML_DSA_NAMES, ("oid",))
    given = params.get("oid")
    if given is not None and given not in (oid(level), oid(level, True)):
        raise ValueError(
            f"parameter_set's oid={given!r} is neither {ML_DSA_NAMES[level]}'s {oid(level)} "
            f"nor its HashML-DSA-with-SHA-512 {oid(level, True)}"
        )
    return level, given


def round3_level(params: Any) -> int:
    """The level (2, 3 or 5) of a round-3 Dilithium parameter dict."""
    return _level(_mapping(params), ROUND3_SETS, ROUND3_NAMES, ())
