#!/usr/bin/env bash
# Times FWI Studio against Deepwave and Devito on the same problem (see scripts/bench_peers.py for what is timed).
# The peers go into a throwaway virtual environment from PyPI (they are benchmark references, never product
# dependencies). Usage: scripts/bench-peers.sh [bench_peers.py options, e.g. --rounds 5 --shots 4 --markdown t.md]
#        scripts/bench-peers.sh --dims 3 [bench_peers_3d.py options, e.g. --n 256 --steps 30] (3D forward propagators)
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
script=bench_peers.py
if [[ ${1:-} == --dims ]]; then
  case ${2:-} in
    2) ;;
    3) script=bench_peers_3d.py ;;
    *) echo "bench-peers: --dims takes 2 or 3" >&2; exit 2 ;;
  esac
  shift 2
fi
"$venv/bin/python" "$root/scripts/$script" --fwi "$fwi" "$@"
