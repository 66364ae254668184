#!/usr/bin/env bash
# The whole suite with two CPU-bound processes beside it (CONTRIBUTING.md): a test that passes only on a
# quiet machine fails here. Arguments go to pytest.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
python -c "while True: pass" & first=$!
python -c "while True: pass" & second=$!
trap 'kill $first $second' EXIT
python -m pytest -q "$@"
