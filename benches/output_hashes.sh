#!/usr/bin/env bash
# Hashes every output of every file in ../shared/corpus and ../shared/bench, converted to every
# writable format (examples/output_hashes.rs), so that a refactoring can show it changed no byte.
#
#   benches/output_hashes.sh record FILE   write the hashes to FILE
#   benches/output_hashes.sh check FILE    hash again and compare with FILE (exit 1 on a change)
#   benches/output_hashes.sh nopdf         the Word outputs of a build without the `pdf` feature
#                                          must equal those of the default build (exit 1 if not)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
if [ ! -d "$shared/corpus" ]; then
    echo "skipped: $shared/corpus is absent" >&2
    exit 0
fi
mapfile -t inputs < <(find "$shared/corpus" "$shared/bench" -type f \
    \( -name '*.docx' -o -name '*.zip' -o -name '*.md' \) ! -name README.md | sort)

run() { # FEATURES OUT_DIR
    local features=$1 out=$2
    rm -rf "$out"
    # shellcheck disable=SC2086
    cargo run -q --release $features --example output_hashes -- "$out" "${inputs[@]}"
}
hashes() { (cd "$1" && find . -type f | sort | xargs sha256sum); }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "${1:-}" in
record)
    run "" "$work/out"
    hashes "$work/out" >"$2"
    echo "$(wc -l <"$2") outputs hashed into $2"
    ;;
check)
    run "" "$work/out"
    hashes "$work/out" >"$work/now"
    if diff "$2" "$work/now"; then
        echo "all $(wc -l <"$2") outputs unchanged"
    else
        echo "outputs changed (< before, > now)" >&2
        exit 1
    fi
    ;;
nopdf)
    run "" "$work/with"
    run "--no-default-features" "$work/without"
    status=0
    # The names start with `..` (the inputs' paths): find, not a glob, sees them.
    count=0
    while IFS= read -r -d '' f; do
        count=$((count + 1))
        cmp -s "$f" "$work/with/$(basename "$f")" || { echo "differs: $(basename "$f")"; status=1; }
    done < <(find "$work/without" -type f \( -name '*.word' -o -name '*.word.toc' \) -print0)
    if [ "$count" = 0 ]; then
        echo "no Word outputs were written" >&2
        exit 1
    fi
    [ $status = 0 ] && echo "all $count Word outputs equal with and without the pdf feature"
    exit $status
    ;;
*)
    echo "usage: $0 record FILE | check FILE | nopdf" >&2
    exit 2
    ;;
esac
