"""The examples in the package's docstrings run as tests."""

import doctest
import importlib

import pytest

MODULES = ["mldsa_rs", "mldsa_rs._keys", "mldsa_rs.ml_dsa.ml_dsa", "mldsa_rs.ml_dsa.pkcs",
           "mldsa_rs.dilithium.dilithium", "mldsa_rs.drbg.aes256_ctr_drbg"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
