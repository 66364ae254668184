"""The suite's own habits that a test can hold (CONTRIBUTING.md, « Tests »): an app is tested in-process through
``tests.asgi_client.TestClient``, never Starlette's own, whose every request costs 2.6 ms of CPU more."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
STARLETTE_CLIENTS = {"fastapi.testclient", "starlette.testclient"}


def starlette_client_imports(path: Path) -> list[str]:
    """Where ``path`` imports Starlette's TestClient (through FastAPI or not), as ``file:line``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module in STARLETTE_CLIENTS \
                and any(alias.name == "TestClient" for alias in node.names):
            found.append(f"{path.name}:{node.lineno}")
    return found


def test_the_tests_use_the_one_call_client():
    found = [where for path in sorted(TESTS.glob("*.py")) if path.name != "asgi_client.py"
             for where in starlette_client_imports(path)]
    assert found == [], "use tests.asgi_client.TestClient"


def test_the_check_finds_a_starlette_client(tmp_path):
    module = tmp_path / "test_x.py"
    module.write_text("from fastapi.testclient import TestClient\nfrom starlette.testclient import TestClient\n")
    assert starlette_client_imports(module) == ["test_x.py:1", "test_x.py:2"]
