#!/usr/bin/env bash
# Times FWI Studio against Deepwave and Devito on the same problem (see scripts/bench_peers.py for what is timed).
# The peers go into a throwaway virtual environment from PyPI (they are benchmark references, never product
# dependencies). Usage: scripts/bench-peers.sh [bench_peers.py options, e.g. --rounds 5 --shots 4 --markdown t.md]
# FWI_PEERS_VENV=DIR reuses a venv between runs; FWI=PATH picks the fwi executable (default build/app/fwi).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fwi=${FWI:-$root/build/app/fwi}
[[ -x $fwi ]] || { echo "bench-peers: $fwi not found; build first (scripts/build.sh)" >&2; exit 2; }
venv=${FWI_PEERS_VENV:-}
if [[ -z $venv ]]; then
  venv=$(mktemp -d -t fwi-peers-XXXXXX)
  trap 'rm -rf "$venv"' EXIT
fi
if [[ ! -x $venv/bin/python ]]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q numpy deepwave devito
fi
"$venv/bin/python" "$root/scripts/bench_peers.py" --fwi "$fwi" "$@"
