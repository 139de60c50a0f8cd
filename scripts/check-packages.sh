#!/usr/bin/env bash
# Proves that the Debian package list of scripts/setup-debian.sh is complete for a configured build: every CMake
# package config, every library the build links, every non-system include directory and every tool the tests call
# must come from a package named in that list or from a hard dependency of one (Depends and Pre-Depends, followed
# recursively; Recommends do not count, because setup installs with --no-install-recommends). A package that is
# only on this machine by hand makes a fresh machine fail, so this fails and names it.
#
# Usage: scripts/check-packages.sh [BUILD_DIR] [--without PKG]...
#   --without PKG  check as if PKG were not in the list (used by the test that shows the check can fail)
# Exit: 0 complete; 1 something used by the build is not covered (the missing packages are printed); 2 usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
without=()
while [ $# -gt 0 ]; do
  case $1 in
    --without) without+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) build=$1; shift ;;
  esac
done
cache=$build/CMakeCache.txt
[ -f "$cache" ] || { echo "check-packages: no CMakeCache.txt in $build (configure first)" >&2; exit 2; }
command -v dpkg-query >/dev/null && command -v apt-cache >/dev/null ||
  { echo "check-packages: needs dpkg and apt-cache (Debian)" >&2; exit 2; }

# 1. The package list, as setup-debian.sh installs it.
mapfile -t named < <("$root/scripts/setup-debian.sh" --list)
for w in "${without[@]}"; do
  for i in "${!named[@]}"; do [ "${named[$i]}" = "$w" ] && unset 'named[i]'; done
done
named=("${named[@]}")

# 2. What the configured build uses.
used=()
# CMake package configs found by find_package (<Name>_DIR entries that hold a *Config.cmake / *-config.cmake).
while IFS= read -r dir; do
  for f in "$dir"/*Config.cmake "$dir"/*-config.cmake; do [ -f "$f" ] && used+=("$f"); done
done < <(sed -n 's/^[A-Za-z0-9_.+-]*_DIR:PATH=\(\/.*\)$/\1/p' "$cache" | sort -u)
# Libraries on the link lines, absolute paths and -lname resolved the way the compiler resolves them.
if [ -f "$build/build.ninja" ]; then
  while IFS= read -r tok; do
    case $tok in
      -l*) p=$(${CXX:-c++} -print-file-name="lib${tok#-l}.so"); [ "${p#/}" != "$p" ] && used+=("$(readlink -f "$p")") ;;
      /*) used+=("$tok") ;;
    esac
  done < <(grep -o 'LINK_LIBRARIES = .*' "$build/build.ninja" | tr ' ' '\n' | grep -E '^(/[^ ]*\.(so|a)[.0-9]*|-l[A-Za-z0-9_+-]+)$' |
             grep -v "^$build" | sort -u)
fi
# Include directories outside the tree and the build (the generic /usr/include is shared by everything: skipped).
if [ -f "$build/compile_commands.json" ]; then
  while IFS= read -r d; do
    [ -d "$d" ] && used+=("$d")
  done < <(grep -oE '(-I|-isystem )/[^ "]+' "$build/compile_commands.json" | sed 's/^-I//; s/^-isystem //' | sort -u |
             grep -vE "^($root|$build|/usr/include$|/usr/local/cuda)")
fi
# Tools the build and the tests run.
for tool in cmake ninja c++ pkg-config xvfb-run xauth; do
  p=$(command -v "$tool" || true); [ -n "$p" ] && used+=("$(readlink -f "$p")")
done
grep -q '^MPIEXEC_EXECUTABLE:FILEPATH=/' "$cache" &&
  used+=("$(readlink -f "$(sed -n 's/^MPIEXEC_EXECUTABLE:FILEPATH=//p' "$cache")")")

# 3. Owners of what is used. Files under /usr/local/cuda are the optional CUDA toolkit (not a Debian package here).
declare -A owners_of=()
unowned=()
for f in $(printf '%s\n' "${used[@]}" | sort -u); do
  case $f in /usr/local/cuda*|/usr/local/cuda-*) continue ;; esac
  o=$(dpkg-query -S "$f" 2>/dev/null | head -1 | sed 's/: \/.*$//' | tr -d ' ') || true
  # Alternatives (e.g. libmpi.so -> /etc/alternatives -> openmpi's) belong to the package of their target.
  if [ -z "$o" ] && [ -L "$f" ]; then
    o=$(dpkg-query -S "$(readlink -f "$f")" 2>/dev/null | head -1 | sed 's/: \/.*$//' | tr -d ' ') || true
  fi
  if [ -z "$o" ]; then unowned+=("$f"); continue; fi
  owners_of[$f]=$o
done

# 4. The closure of the named packages over hard dependencies.
declare -A closure=()
while IFS= read -r p; do closure[${p%%:*}]=1; done < <(
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
    "${named[@]}" 2>/dev/null | grep -E '^[a-z0-9]' || true)
[ ${#closure[@]} -gt 0 ] || { echo "check-packages: apt-cache knows none of the packages (run apt-get update)" >&2; exit 2; }

missing=()
declare -A reported=()
for f in "${!owners_of[@]}"; do
  ok=0
  IFS=',' read -ra candidates <<<"${owners_of[$f]}"   # a directory can belong to several packages
  for c in "${candidates[@]}"; do [ -n "${closure[${c%%:*}]:-}" ] && ok=1; done
  if [ $ok = 0 ]; then
    pkg=${candidates[0]%%:*}
    [ -z "${reported[$pkg]:-}" ] && missing+=("$pkg") && echo "check-packages: $f comes from $pkg"
    reported[$pkg]=1
  fi
done
for f in "${unowned[@]}"; do echo "check-packages: $f belongs to no Debian package"; done

if [ ${#missing[@]} -gt 0 ] || [ ${#unowned[@]} -gt 0 ]; then
  echo "check-packages: FAILED: missing from scripts/setup-debian.sh: ${missing[*]:-}${unowned:+ (and ${#unowned[@]} file(s) from no package)}" >&2
  exit 1
fi
echo "check-packages: complete: ${#owners_of[@]} files used by the build all come from the ${#named[@]} named packages or their hard dependencies"
