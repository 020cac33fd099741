#!/usr/bin/env bash
# The layering check: only `dxbc` knows opcode numbers, D3D enum values and
# instruction controls; `vm`, `glsl`, `harness` and `tui` read the typed
# description `dxbc` hands them. Prints every line that breaks this, then
# two counts, and fails when either is non-zero (unless LAYERING_WARN_ONLY=1,
# which prints the same and exits 0).
set -euo pipefail
cd "$(dirname "$0")/.."

# The layers above `dxbc`.
dirs=(src/vm src/glsl src/harness src/tui)

# Opcode or enum numbers compared outside `dxbc` (extended regular
# expressions, as grep -E reads them).
numbers=(
    # an instruction's raw opcode field read directly
    '\.opcode\b'
    # the table of numeric opcode constants
    'opcodes::code'
    # one numeric opcode constant (`code::MOV`)
    'code::[A-Z]'
    # an instruction's behaviour looked up by opcode number
    'exec_of\((0x)?[0-9]'
    # a system value made from its D3D number
    'SystemValue\([0-9]'
    # a resource dimension made from (or unwrapped to) its raw number
    'ResourceDim\('
    # a resource return type made from its D3D number
    'ReturnType\([0-9]'
    # a signature component type compared with its D3D number
    'component_type (==|!=) [0-9]'
    # the raw number inside an operand type
    '\.ty\.0\b'
    # an opcode matched inside matches!
    'matches!\([^,]*opcode'
    # an opcode's or D3D enum's number read back (`Op::Mov.code()`)
    '\.code\(\)'
    # an opcode or D3D enum made from a number
    '(Op|SystemValue|ComponentType|ResourceDimension|ReturnType|Interpolation|SamplerMode|ProgramType|ResInfoReturn|SampleInfoReturn)::from_code\('
)

# Instruction controls (the opcode token's extra bits) read outside `dxbc`.
controls=(
    # the raw controls field of an instruction
    '\.controls\b'
)

# A line may carry a D3D number on purpose: one that writes it into what a
# runtime reads (the DXGI format code a translated shader compares with the
# view description its runtime fills) rather than decoding bytecode. Such a
# line ends in `// layering-ok: REASON`; it is listed, never counted.
ALLOWED='// layering-ok: '

# Prints the lines matching any of the patterns given (file:line: text),
# comment lines and allowed lines left out, each once; the count is the
# number of lines.
matches() {
    local args=()
    for p in "$@"; do
        args+=(-e "$p")
    done
    grep -rnE --include='*.rs' "${args[@]}" "${dirs[@]}" |
        grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' |
        grep -vF "$ALLOWED" || true
}

# Prints the title, every matching line, then the count; leaves the count in
# `count`.
report() {
    local title=$1
    shift
    local found
    found=$(matches "$@")
    count=0
    echo "== $title"
    if [ -n "$found" ]; then
        printf '%s\n' "$found"
        count=$(printf '%s\n' "$found" | wc -l)
    fi
    echo "$title: $count"
}

echo "== allowed (each with its reason)"
grep -rnF --include='*.rs' "$ALLOWED" "${dirs[@]}" || true

report "opcode or enum numbers compared outside dxbc" "${numbers[@]}"
n_numbers=$count
report "reads of controls outside dxbc" "${controls[@]}"
n_controls=$count

if [ "$n_numbers" -ne 0 ] || [ "$n_controls" -ne 0 ]; then
    if [ "${LAYERING_WARN_ONLY:-}" = 1 ]; then
        echo "layering: not clean (LAYERING_WARN_ONLY=1: not failing)"
        exit 0
    fi
    echo "layering: not clean; read the typed description dxbc gives instead" >&2
    exit 1
fi
echo "layering: clean"
