#!/bin/sh
# Builds the Discord Activity's one script and one style sheet (app.js,
# app.css; committed, embedded by activity.go and served under names
# made of their hashes, cached for good) from main.js and main.css with
# esbuild, pinned below (build.mjs says how), and records in
# inputs.sha256 the sum of every file the build read and wrote.
# TestActivityBundleCurrent checks the sums: when it fails, run this (it
# needs node and npm):
#
#	sh chat/web/activity/build.sh
set -eu
cd "$(dirname "$0")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
npm install --silent --no-save --no-audit --no-fund --prefix "$tmp" esbuild@0.28.2 >/dev/null
# The SDK's licence goes with it (MIT asks for its notice in every copy).
banner="/*! Discord's Embedded App SDK 2.5.0 (@discord/embedded-app-sdk), bundled with gobot's Activity page: $(tr '\n' ' ' < ../discord-sdk/LICENSE.md | sed 's/  */ /g; s/ *$//') */"
ESBUILD_DIR="$tmp" node build.mjs "$banner" "$tmp/files"
xargs sha256sum < "$tmp/files" > inputs.sha256
