#!/usr/bin/env bash
# Long fuzz campaigns that add up across runs on the same code (see fuzz/README.md).
#
#   fuzz/campaign.sh run TARGET SECONDS [--no-trace-compares]
#   fuzz/campaign.sh summary
#   fuzz/campaign.sh fingerprint [REV]
#
# `run` builds TARGET, runs it for SECONDS on fuzz/corpus/TARGET (plus fuzz/seeds/TARGET) and
# appends one line to fuzz/campaigns.tsv: when, the target, the code's fingerprint, the build
# mode, executions, seconds and the result. The fingerprint names what a fuzz binary is built
# from: the library's sources (the CLI in src/bin is not), templates and style sets, the fuzz
# targets, the fuzz manifest and lock file, and the sections of the root manifest a build
# reads (package, features, dependencies, lints). Runs on different code never add up: the run
# refuses to start, and records nothing, when any of those differs from HEAD or is untracked.
# `summary` adds up the clean and stopped runs per target, fingerprint and build mode, and
# names the runs that failed. Lines starting with `#` in the ledger are notes.
#
# Stop a run with Ctrl-C (SIGINT): libFuzzer prints its counts and exits 72, recorded as
# `stopped` with its executions counted. Do not pause a run (SIGSTOP): libFuzzer's per-input
# timer keeps running and reports a timeout when the run resumes.
set -euo pipefail
cd "$(dirname "$0")/.."

ledger=fuzz/campaigns.tsv
inputs=(src templates styles Cargo.toml fuzz/fuzz_targets fuzz/Cargo.toml fuzz/Cargo.lock)

# The fingerprint of the fuzzed code at REV (HEAD by default).
fingerprint() {
    local rev=${1:-HEAD}
    {
        git ls-tree -r "$rev" -- src templates styles fuzz/fuzz_targets \
            fuzz/Cargo.toml fuzz/Cargo.lock | grep -v $'\tsrc/bin/'
        # The fuzz crate is a workspace of its own: the root manifest's profiles, targets and
        # dev-dependencies never reach its build.
        git show "$rev:Cargo.toml" | awk '
            /^\[/ { keep = ($0 ~ /^\[(package|features|dependencies|lints(\..*)?|target\..*dependencies)\]$/) }
            keep'
    } | sha1sum | cut -c1-12
}

# Refuses when the fuzzed code differs from HEAD, untracked files included.
require_clean() {
    if [ -n "$(git status --porcelain --untracked-files=all -- "${inputs[@]}")" ]; then
        echo "campaign: the fuzzed code differs from HEAD ($1); commit it first" >&2
        exit 2
    fi
}

case "${1:-}" in
run)
    target=${2:?target}
    seconds=${3:?seconds}
    # Both become paths and flags: only a listed target and a whole number of seconds.
    if ! (cd fuzz && cargo fuzz list) | grep -qxF -- "$target"; then
        echo "campaign: $target is not a fuzz target (cargo fuzz list)" >&2
        exit 2
    fi
    if ! [[ $seconds =~ ^[1-9][0-9]{0,6}$ ]]; then
        echo "campaign: SECONDS must be a whole number from 1 to 9999999" >&2
        exit 2
    fi
    mode=cmp
    flags=()
    if [ "${4:-}" = "--no-trace-compares" ]; then
        mode=nocmp
        flags=(--no-trace-compares --target-dir target/nocmp)
    fi
    require_clean "before the build"
    print=$(fingerprint)
    (cd fuzz && cargo fuzz build -s none ${flags[@]+"${flags[@]}"} "$target")
    # A build may rewrite fuzz/Cargo.lock: the binary must still be HEAD's code.
    require_clean "after the build"
    triple=$(rustc -vV | sed -n 's/^host: //p')
    if [ "$mode" = nocmp ]; then
        bin=fuzz/target/nocmp/$triple/release/$target
    else
        bin=fuzz/target/$triple/release/$target
    fi
    corpus=fuzz/corpus/$target
    artifacts=fuzz/artifacts/$target
    mkdir -p "$corpus" "$artifacts"
    seeds=()
    if [ -d "fuzz/seeds/$target" ]; then
        seeds=("fuzz/seeds/$target")
    fi
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    begin=$(date +%s)
    # Ctrl-C reaches the whole process group: only the fuzzer may act on it. This shell and
    # tee carry on, so the fuzzer's closing counts still reach the log and the ledger.
    trap : INT
    set +e
    "$bin" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" ${seeds[@]+"${seeds[@]}"} 2>&1 | tee -i "$log"
    code=${PIPESTATUS[0]}
    set -e
    trap - INT
    took=$(($(date +%s) - begin))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    case "$code" in
    0) result=clean ;;
    72) result=stopped ;;
    *) result="failed($code)" ;;
    esac
    if [ ! -f "$ledger" ]; then
        printf 'started\ttarget\tfingerprint\tmode\texecutions\tseconds\tresult\n' >"$ledger"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
        "$started" "$target" "$print" "$mode" "${runs:-0}" "$took" "$result" >>"$ledger"
    echo "campaign: $target $result, ${runs:-0} executions in $took s (fingerprint $print)"
    [ "$code" = 0 ] || [ "$code" = 72 ]
    ;;
summary)
    echo "code now: $(fingerprint)"
    printf '%-16s %-12s %-6s %12s %8s %5s  %s\n' target fingerprint mode executions seconds \
        runs 'failed runs (started)'
    awk -F '\t' 'NR > 1 && !/^#/ {
        key = $2 "\t" $3 "\t" $4
        seen[key] = 1
        if ($7 == "clean" || $7 == "stopped") { runs[key] += $5; secs[key] += $6; n[key]++ }
        else { bad[key] = bad[key] " " $1 }
    }
    END {
        for (k in seen) {
            split(k, part, "\t")
            printf "%-16s %-12s %-6s %12d %8d %5d  %s\n", part[1], part[2], part[3], runs[k],
                secs[k], n[k], bad[k]
        }
    }' "$ledger" | sort
    ;;
fingerprint)
    fingerprint "${2:-HEAD}"
    ;;
*)
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
