#!/bin/sh
# Regenerates app/assets/fonts/archivo-latin-subset.woff2 from the npm font package.
#
# The package's Latin file carries every weight (100–900) and width (62–125 %): 90 kB that every
# first visit waits for. The site uses weights 400–900 and widths 100–125 % (body text and the
# wide headings), and only Latin-1 plus typographic punctuation, so the instance below keeps
# those ranges and glyphs, with kerning and tabular figures: about 49 kB.
#
# Needs fontTools with Brotli (Debian: apt-get install python3-fonttools python3-brotli). The
# output is committed, so building the site does not need them.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
source="$root/node_modules/@fontsource-variable/archivo/files/archivo-latin-wdth-normal.woff2"
out="$root/app/assets/fonts/archivo-latin-subset.woff2"
python=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$python" -m fontTools.varLib.instancer "$source" wght=400:900 wdth=100:125 -o "$tmp/instance.ttf"
"$python" -m fontTools.subset "$tmp/instance.ttf" \
  --unicodes="U+0020-007E,U+00A0-00FF,U+2013-2014,U+2018-2019,U+201C-201D,U+2022,U+2026,U+20AC,U+2122,U+2190-2193,U+2212" \
  --layout-features="kern,liga,calt,tnum,lnum,case" \
  --flavor=woff2 --output-file="$out"
ls -l "$out"
