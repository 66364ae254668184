#!/usr/bin/env bash
# Run the README's test command as a new user would: a clean clone of the committed HEAD and a
# brand-new virtual environment, so that nothing installed earlier on this machine can help.
# Run it before committing a new lock (CONTRIBUTING.md). The Debian packages the suite drives
# (chromium-headless-shell, postgresql, nginx) must be present: .ci/run installs them.
#
# As root (where unshare works), the base interpreter's site-packages is also put out of reach for the
# whole run: an empty folder is mounted over it in a private mount namespace, so a test that leans on a
# package installed outside the virtual environment fails here as it would on a new machine. Nothing
# outside the namespace sees the change. Extra arguments go to pytest (for example -m "not slow").
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
command="$command $*"
base_site=$("$work/venv/bin/python" -c '
import sys, sysconfig
print(sysconfig.get_path("purelib", vars={"base": sys.base_prefix, "platbase": sys.base_prefix}))')
echo "In a clean clone of $(git rev-parse --short HEAD) and a new virtual environment: $command"
# shellcheck disable=SC1091
. "$work/venv/bin/activate"
export PYTHONNOUSERSITE=1
if [ "$(id -u)" = 0 ] && unshare -m true 2> /dev/null; then
  mkdir "$work/empty"
  echo "With $base_site out of reach (an empty folder mounted over it)"
  unshare -m bash -c 'mount --bind "$1" "$2" && shift 2 && exec bash -c "$1"' _ "$work/empty" "$base_site" "$command"
else
  echo "Warning: not root or no unshare: the base interpreter's site-packages stays visible" >&2
  bash -c "$command"
fi
