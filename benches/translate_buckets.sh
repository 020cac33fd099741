#!/usr/bin/env bash
# Translation time by shader size, against HLSLcc: the per-bucket view of
# the figure `../shared/perf/perf_ratios.sh` reports as one ratio. Fixed
# per-shader costs decide the small buckets and per-instruction costs the
# large ones, so one overall ratio can hide a bucket where dxbc-dbg is the
# slower translator.
#
# Usage, from the project root, after perf_ratios.sh has built the peers
# (it leaves target/release/dxbc_dbg_bench and target/peers/hlslcc):
#   bash benches/translate_buckets.sh [CORPUS_DIR]   (default ../shared/corpus)
# PAIRS (default 3) and ROUNDS (default 30) scale the run. Each file's time
# is its fastest round over all runs; the two translators run in turn,
# A B A B, so a shared machine's drift falls on both.
#
# Buckets count instructions as the bench does (the program's instructions,
# declarations included). The file set is perf_ratios.sh's: VS/PS that both
# translators translate.
set -euo pipefail

corpus=$(cd "${1:-../shared/corpus}" && pwd)
project=$(pwd)
ours=$project/target/release/dxbc_dbg_bench
peer=$project/target/peers/hlslcc/hlslcc_batch
for b in "$ours" "$peer"; do
    [ -x "$b" ] || { echo "missing $b: run ../shared/perf/perf_ratios.sh . $corpus first" >&2; exit 2; }
done
pairs=${PAIRS:-3}
rounds=${ROUNDS:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$corpus"
awk -F'\t' 'NR>1 && ($9=="vs"||$9=="ps") {print $1}' manifest.tsv > "$work/vsps.list"
"$ours" translate --per-file "@$work/vsps.list" \
    | awk -F'\t' '$1=="file" && $3==1 {print $2}' > "$work/ours.list"
# HLSLcc crashes on some blobs, so each file is tried in its own process.
while read -r f; do
    if timeout 20 "$peer" "$f" 2>/dev/null | grep -q "$(printf '^summary\t.*\tok\t1\t')"; then
        echo "$f"
    fi
done < "$work/ours.list" > "$work/both.list"

for p in $(seq "$pairs"); do
    "$ours" translate --rounds "$rounds" --per-file "@$work/both.list" \
        | awk -F'\t' '$1=="file" {print $2 "\t" $4 "\t" $7}' > "$work/a.$p"
    "$peer" --rounds "$rounds" --per-file "@$work/both.list" \
        | awk -F'\t' '$1=="file" {print $2 "\t" $4}' > "$work/b.$p"
done

python3 - "$work" "$pairs" <<'EOF'
import sys
work, pairs = sys.argv[1], int(sys.argv[2])
ours, peer, size = {}, {}, {}
for p in range(1, pairs + 1):
    for line in open(f"{work}/a.{p}"):
        f, ns, n = line.rstrip("\n").split("\t")
        ours[f] = min(ours.get(f, 1 << 62), int(ns))
        size[f] = int(n)
    for line in open(f"{work}/b.{p}"):
        f, ns = line.rstrip("\n").split("\t")
        peer[f] = min(peer.get(f, 1 << 62), int(ns))
files = [f for f in ours if f in peer]
total_a = sum(ours[f] for f in files)
total_b = sum(peer[f] for f in files)
for lo, hi in ((1, 8), (9, 32), (33, 128), (129, 512), (513, None)):
    fs = [f for f in files if size[f] >= lo and (hi is None or size[f] <= hi)]
    if not fs:
        continue
    a = sum(ours[f] for f in fs) / len(fs) / 1e3
    b = sum(peer[f] for f in fs) / len(fs) / 1e3
    name = f"{lo}-{hi}" if hi else f"{lo}+"
    print(f"{name:>8} instructions: {len(fs):3} shaders, dxbc-dbg {a:8.1f} us, "
          f"HLSLcc {b:8.1f} us, {b / a:5.2f}x")
print(f"buckets: all {len(files)} shaders {total_b / total_a:.2f}x HLSLcc "
      f"(sum of per-file fastest times)")
EOF
