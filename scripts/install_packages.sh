#!/usr/bin/env bash
# Installs whichever of the given Debian packages are missing (idempotent): the one place the
# scripts call apt-get. Usage: scripts/install_packages.sh WHO PACKAGE...  (WHO prefixes the message)
set -euo pipefail
who=$1
shift
missing=()
for p in "$@"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "$who: installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
