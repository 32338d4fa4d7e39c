# Sourced by scripts/demo and scripts/test: make sure .venv exists with the given extra.
# Usage: ensure_venv EXTRA   (demo | dev)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "feltwire: need root to run: $*" >&2; return 1; fi
}

apt_install() {
  # apt_install PACKAGE... — install Debian packages (Debian / Raspberry Pi OS)
  if ! command -v apt-get >/dev/null; then
    echo "feltwire: please install $* with your system's package manager" >&2; return 1
  fi
  echo "feltwire: installing $* (apt-get)…" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 || {
    as_root apt-get update -qq >/dev/null 2>&1
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  }
}

find_python() {
  for py in python3.13 python3.12 python3.11 python3; do
    if command -v "$py" >/dev/null && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
      echo "$py"; return 0
    fi
  done
  echo "feltwire: needs Python 3.11 or newer (apt-get install python3)" >&2
  return 1
}

ensure_venv() {
  local extra="$1"
  local hash; hash="$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)"
  local stamp="$VENV/.feltwire-$extra-$hash"
  [ -f "$stamp" ] && return 0
  # the dev extra includes everything the demo needs
  [ "$extra" = demo ] && [ -f "$VENV/.feltwire-dev-$hash" ] && return 0
  if [ ! -x "$VENV/bin/python" ]; then
    local py; py="$(find_python)"
    echo "feltwire: creating $VENV with $py…" >&2
    if ! "$py" -m venv "$VENV" 2>/dev/null; then
      rm -rf "$VENV"
      apt_install python3-venv
      "$py" -m venv "$VENV"
    fi
  fi
  echo "feltwire: installing feltwire[$extra] into .venv (first run only)…" >&2
  "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$VENV/bin/python" -m pip install -q -e "$ROOT[$extra]"
  if [ "$extra" = dev ]; then
    # the PyPI RC522 libraries, for the contract test against our chip emulator; without
    # their Pi-only dependencies (RPi.GPIO, spidev), which the test replaces with fakes
    "$VENV/bin/python" -m pip install -q --no-deps mfrc522==0.0.7 pi-rc522==2.3.0
  fi
  rm -f "$VENV"/.feltwire-"$extra"-*
  touch "$stamp"
}
