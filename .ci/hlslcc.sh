#!/usr/bin/env bash
# Builds Unity's HLSLcc (the `hlslcc_batch` command line around it) from the
# snapshot under ../shared/perf/peers/hlslcc into target/peers/hlslcc, for
# `diff --translator hlslcc=…` and the tests that run it
# (docs/translators.md). Prints the binary's path last. Already built: only
# prints it. Without ../shared (a checkout on its own) there is nothing to
# build from: it says so on standard error, prints nothing and exits 0, and
# the HLSLcc tests say they were skipped.
#   .ci/hlslcc.sh
set -euo pipefail
cd "$(dirname "$0")/.."

script=../shared/perf/peers/hlslcc/build_from_snapshot.sh
if [ ! -f "$script" ]; then
    echo "HLSLcc not built: $script is absent (no ../shared beside this checkout)" >&2
    exit 0
fi
for tool in cmake g++; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "HLSLcc needs $tool (apt-get install cmake g++)" >&2
        exit 1
    }
done
# The snapshot's build script prints the binary's path last; its own output
# above that goes to standard error so the last line here is the path.
path=$(bash "$script" target/peers/hlslcc | tail -n 1)
if [ ! -x "$path" ]; then
    echo "HLSLcc's build gave no binary at $path" >&2
    exit 1
fi
echo "$path"
