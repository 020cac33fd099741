#!/usr/bin/env bash
# The project's test command (README.md). Installs what the tests need when it
# is missing, then checks formatting and lints and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v glslangValidator >/dev/null 2>&1 || need+=(glslang-tools)
# lavapipe, the software Vulkan driver the differential harness renders with.
ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || need+=(mesa-vulkan-drivers)
# The step debugger's end-to-end test runs the binary in a real terminal.
command -v tmux >/dev/null 2>&1 || need+=(tmux)
# The WebGL2 backend draws the es300 text in headless Chromium (ANGLE on
# SwiftShader without a GPU).
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
# Unity's HLSLcc, the external translator the suite also judges, is built
# from source (.ci/hlslcc.sh).
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v g++ >/dev/null 2>&1 || need+=(g++)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing: ${need[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "missing packages: ${need[*]} (install them, e.g. apt-get install ${need[*]})" >&2
        exit 1
    fi
fi

cargo fmt --check

# The library alone (docs/ARCHITECTURE.md, "Cargo features"): it builds and
# lints without the GPU and terminal crates, and none of them creep back in.
cargo build --quiet --no-default-features --lib
cargo clippy --quiet --no-default-features --lib -- -D warnings
heavy=$(cargo tree --no-default-features -e normal --prefix none |
    grep -E '^(wgpu|naga|pollster|ratatui|crossterm)[-_a-z0-9]* v' | sort -u || true)
if [ -n "$heavy" ]; then
    echo "the library without default features depends on:" >&2
    echo "$heavy" >&2
    exit 1
fi

cargo clippy --all-targets --quiet -- -D warnings
# HLSLcc for the translator tests; they find it through DXBC_DBG_HLSLCC (or
# at target/peers/hlslcc/hlslcc_batch) and say so when it is not built.
hlslcc=$(bash .ci/hlslcc.sh)
if [ -n "$hlslcc" ]; then
    export DXBC_DBG_HLSLCC="$hlslcc"
    echo "HLSLcc: $hlslcc"
fi
cargo test --release -- --show-output
# The binary without the Vulkan backend names it as not built.
cargo test --release --no-default-features --features cli --test harness_cli

# Last, so that a layering failure still leaves the whole test log.
bash .ci/layering.sh
