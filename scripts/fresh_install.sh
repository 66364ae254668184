#!/usr/bin/env bash
# Run the README's test command as a new user would: a clean clone of the committed HEAD and a
# brand-new virtual environment, so that nothing installed earlier on this machine can help.
# Run it before committing a new lock (CONTRIBUTING.md). The Debian packages the suite drives
# (chromium, postgresql, nginx) must be present: .ci/run installs them.
set -euo pipefail
repo=$(git rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$repo" "$work/kadesh"
python3 -m venv "$work/venv"
cd "$work/kadesh"
command=$(python3 -c '
import re, sys
readme = open("README.md").read()
quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
print(re.findall(r"```sh\n(.*?)\n```", quick_start, flags=re.S)[1])
')
echo "In a clean clone of $(git rev-parse --short HEAD) and a new virtual environment: $command"
# shellcheck disable=SC1091
. "$work/venv/bin/activate"
bash -c "$command"
