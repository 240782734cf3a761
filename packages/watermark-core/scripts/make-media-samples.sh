#!/usr/bin/env bash
# Regenerates the tiny media samples in fixtures/media, which the C2PA media tests sign and read.
# The tests never run this (they read the committed files); it records how each sample was made.
# Needs Debian's ffmpeg and libjxl-tools (cjxl): apt-get install -y --no-install-recommends ffmpeg libjxl-tools
# Node (24, for its TypeScript type stripping) writes the DNG, which ffmpeg cannot.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "$here/../../../fixtures/media" && pwd)
# -bitexact and no metadata: a rerun with the same ffmpeg gives the same bytes, so a diff shows
# only real changes.
ff=(ffmpeg -hide_banner -loglevel error -y)
# Output options that keep encoder names and dates out of the files.
exact=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact)
video=(-f lavfi -i testsrc=size=64x64:rate=10:duration=1)
tone=(-f lavfi -i sine=frequency=440:sample_rate=8000:duration=1)

"${ff[@]}" "${video[@]}" -c:v libx264 -preset veryslow -crf 35 -pix_fmt yuv420p -movflags +faststart "${exact[@]}" "$out/sample.mp4"
"${ff[@]}" "${video[@]}" -c:v libx264 -preset veryslow -crf 35 -pix_fmt yuv420p -f mov "${exact[@]}" "$out/sample.mov"
"${ff[@]}" "${video[@]}" -c:v mjpeg -q:v 20 -pix_fmt yuvj420p "${exact[@]}" "$out/sample.avi"
"${ff[@]}" "${tone[@]}" -c:a aac -b:a 16k -f ipod "${exact[@]}" "$out/sample.m4a"
"${ff[@]}" "${tone[@]}" -c:a libmp3lame -b:a 16k -id3v2_version 3 "${exact[@]}" "$out/sample.mp3"
"${ff[@]}" -f lavfi -i sine=frequency=440:sample_rate=8000:duration=0.25 -c:a pcm_s16le "${exact[@]}" "$out/sample.wav"
"${ff[@]}" "${tone[@]}" -c:a flac "${exact[@]}" "$out/sample.flac"

# JPEG XL, both layouts a file can have: a bare codestream (FF 0A) and the ISO BMFF-style
# container ('JXL ' signature box), which cjxl writes when asked to keep a box.
frame=$(mktemp --suffix=.png)
trap 'rm -f "$frame"' EXIT
"${ff[@]}" -f lavfi -i testsrc=size=64x64 -frames:v 1 "${exact[@]}" "$frame"
cjxl --quiet -d 1 "$frame" "$out/sample.jxl"
cjxl --quiet -d 1 --container=1 "$frame" "$out/sample-container.jxl"

node "$here/make-minimal-dng.ts" "$out/sample.dng"
ls -l "$out"
