"""Every ```python block of the package README and of the repository README runs as written,
each in a fresh namespace and an empty temporary directory (a snippet that reads a file must
create it first), as the Rust README's example runs as a doctest."""

import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve()
READMES = {"bindings/python/README.md": HERE.parents[1] / "README.md", "README.md": HERE.parents[3] / "README.md"}
FENCE = re.compile(r"^```(?:python|py)[ \t]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def snippets():
    found = []
    for name, path in READMES.items():
        for i, match in enumerate(FENCE.finditer(path.read_text())):
            found.append(pytest.param(name, match.group(1), id=f"{name}#{i + 1}"))
    return found


SNIPPETS = snippets()


def test_the_package_readme_has_snippets():
    # Guards the extraction itself: a changed fence style must not leave nothing to run.
    assert sum(1 for p in SNIPPETS if p.values[0] == "bindings/python/README.md") >= 2


@pytest.mark.parametrize("readme,code", SNIPPETS)
def test_snippet_runs(readme, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__readme__"}
    exec(compile(code, readme, "exec"), namespace)  # noqa: S102
