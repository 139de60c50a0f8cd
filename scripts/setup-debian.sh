#!/usr/bin/env bash
# Installs the Debian 12 packages FWI Studio builds and tests with. Idempotent: apt runs only when something is
# missing. Works as root or through sudo. `--list` prints the package names, one a line, and installs nothing
# (scripts/check-packages.sh reads the list from there). clang-14, its compiler-rt (libFuzzer, sanitizer runtimes)
# and libomp serve the fuzz targets only (scripts/fuzz.sh); the product builds with gcc.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev libqt6opengl6-dev libvtk9-dev libhdf5-dev hdf5-tools libzfp-dev libzstd-dev liblz4-dev libblosc-dev
  libsegyio-dev libfftw3-dev libcli11-dev nlohmann-json3-dev
  xvfb xauth libgl1-mesa-dri zlib1g-dev
  libopenmpi-dev openmpi-bin
  clang-14 libclang-rt-14-dev libomp-14-dev
)
if [ "${1:-}" = --list ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
