#!/usr/bin/env bash
# Unpacks Debian's newer LibreOffice (bookworm-backports, 25.2 on 2026-11-29) into a directory of
# its own, without installing it, for the office-fidelity bench: the WebAssembly office is
# LibreOffice 24.8 while Debian 12's own is 7.4, so a comparison with one only a release apart
# tells version differences from the WebAssembly build's own. Nothing of the machine changes:
# apt reads the backports index into a temp dir and only downloads; dpkg -x unpacks.
#   bash test/bench/libreoffice-backports.sh DIR   → DIR/usr/lib/libreoffice/program/soffice
#   OFFICE_FIDELITY_SOFFICE=DIR/usr/lib/libreoffice/program/soffice npm run bench:office-fidelity
set -euo pipefail
dest="$(realpath -m "${1:?usage: libreoffice-backports.sh DIR}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"  # apt downloads as _apt where it can
mkdir -p "$work/lists/partial" "$work/cache" "$work/archives/partial" "$dest"
cat >"$work/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm-backports main
deb http://deb.debian.org/debian bookworm main
EOF
apt_options=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -o "Dir::Cache::archives=$work/archives")
apt-get "${apt_options[@]}" -qq update
# What the installed nogui office has, at the backports version; apt adds the newer libraries it needs.
apt-get "${apt_options[@]}" -qq -y --download-only -t bookworm-backports install \
  libreoffice-core-nogui libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui >/dev/null
for deb in "$work"/archives/*.deb; do dpkg -x "$deb" "$dest"; done

program="$dest/usr/lib/libreoffice/program"
# Debian's files point into /etc, /var and /usr/lib/libreoffice (the installed 7.4): point them here.
ln -sfn "$dest/usr/lib/libreoffice/share/.registry/main.xcd" "$dest/usr/lib/libreoffice/share/registry/main.xcd"
ln -sfn "$dest/etc/libreoffice/psprint.conf" "$dest/usr/lib/libreoffice/share/psprint/psprint.conf"
sed -i "s#file:///usr/lib/libreoffice#file://$dest/usr/lib/libreoffice#" "$program/fundamentalrc"
# Libraries the backports packages put in /usr/lib/<triplet>: beside soffice.bin (its RUNPATH is $ORIGIN).
for lib in "$dest"/usr/lib/*-linux-gnu/*.so.*; do [ -e "$program/$(basename "$lib")" ] || cp -a "$lib" "$program/"; done
tr -d '\n' <"$dest/usr/lib/libreoffice/share/.registry/main.xcd" | grep -oP 'oor:name="ooSetupVersionAboutBox"[^>]*>\s*<value>\K[^<]+' | sed 's/^/LibreOffice /' >&2
echo "$program/soffice"
