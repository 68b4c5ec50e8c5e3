#!/usr/bin/env bash
# Installs, on Debian or Ubuntu, every program the tests use: the packages in scripts/test-tools.txt.
# README tells a newcomer to run it (as root or with sudo); .ci/run runs it too, so there is one list.
set -euo pipefail
cd "$(dirname "$0")"
mapfile -t packages < <(sed -e 's/#.*//' -e 's/:.*//' -e '/^[[:space:]]*$/d' test-tools.txt)
missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
