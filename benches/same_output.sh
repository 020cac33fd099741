#!/usr/bin/env bash
# Speed work must not change a result: this runs two builds of dxbc-dbg over
# every file of the corpus and compares what each prints, byte for byte,
# for `disasm`, `glsl` (es300), `glsl --dialect vk450 --map` and `info`.
# Errors count as output too (a refusal must stay the same refusal).
#
# Usage, from the project root:
#   cp target/release/dxbc-dbg /tmp/dxbc-dbg.before    # before the change
#   ... change, cargo build --release ...
#   bash benches/same_output.sh /tmp/dxbc-dbg.before target/release/dxbc-dbg [CORPUS_DIR]
# Prints each output that differs and ends 1 if any did, 0 if none.
set -uo pipefail

[ $# -ge 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY [CORPUS_DIR]" >&2; exit 2; }
old=$1
new=$2
corpus=$(cd "${3:-../shared/corpus}" && pwd) || exit 2
for b in "$old" "$new"; do
    [ -x "$b" ] || { echo "$b: not an executable" >&2; exit 2; }
done

modes=("disasm" "glsl --dialect es300" "glsl --dialect vk450 --map" "info")
files=0
differ=0
while IFS= read -r -d '' f; do
    files=$((files + 1))
    for mode in "${modes[@]}"; do
        # shellcheck disable=SC2086 # the mode is words on purpose
        if ! cmp -s <("$old" $mode "$f" 2>&1) <("$new" $mode "$f" 2>&1); then
            echo "differs: $mode ${f#"$corpus"/}"
            differ=$((differ + 1))
        fi
    done
done < <(find "$corpus" -type f ! -name '*.tsv' ! -name '*.md' ! -name '*.txt' -print0 | sort -z)

echo "same_output: $files files, ${#modes[@]} outputs each, $differ differ"
[ "$differ" -eq 0 ]
