#!/usr/bin/env bash
# Long fuzz campaigns that add up across runs, and across sessions, on the same code.
#
#   fuzz/campaign.sh run TARGET SECONDS [--no-trace-compares]
#   fuzz/campaign.sh summary
#
# `run` builds TARGET, runs it for SECONDS on fuzz/corpus/TARGET (plus fuzz/seeds/TARGET) and
# appends one line to fuzz/campaigns.tsv: when, the target, the code's fingerprint, the build
# mode, executions, seconds and the result. The fingerprint names the git trees of everything a
# fuzz binary is built from (the library's sources, templates and style sets, the fuzz targets,
# both manifests and the fuzz lock file), so runs on different code never add up; the run
# refuses to start when any of those differs from HEAD. `summary` adds up the clean runs per
# target and fingerprint, and names any run that failed.
#
# Let a run finish, or stop it with Ctrl-C (SIGINT: libFuzzer prints its counts and exits 72,
# recorded as `stopped`, its executions counted). Do not pause it (SIGSTOP): libFuzzer's
# per-input timer keeps running and reports a timeout when it resumes.
set -euo pipefail
cd "$(dirname "$0")/.."

ledger=fuzz/campaigns.tsv
inputs=(src templates styles Cargo.toml fuzz/fuzz_targets fuzz/Cargo.toml fuzz/Cargo.lock)

fingerprint() {
    local path
    for path in "${inputs[@]}"; do
        git rev-parse "HEAD:$path"
    done | sha1sum | cut -c1-12
}

case "${1:-}" in
run)
    target=${2:?target}
    seconds=${3:?seconds}
    mode=cmp
    flags=()
    if [ "${4:-}" = "--no-trace-compares" ]; then
        mode=nocmp
        flags=(--no-trace-compares --target-dir target/nocmp)
    fi
    if ! git diff --quiet HEAD -- "${inputs[@]}"; then
        echo "campaign: the fuzzed code differs from HEAD; commit it first" >&2
        exit 2
    fi
    print=$(fingerprint)
    (cd fuzz && cargo fuzz build -s none "${flags[@]}" "$target")
    if [ "$mode" = nocmp ]; then
        bin=fuzz/target/nocmp/x86_64-unknown-linux-gnu/release/$target
    else
        bin=fuzz/target/x86_64-unknown-linux-gnu/release/$target
    fi
    corpus=fuzz/corpus/$target
    artifacts=fuzz/artifacts/$target
    mkdir -p "$corpus" "$artifacts"
    seeds=()
    if [ -d "fuzz/seeds/$target" ]; then
        seeds=("fuzz/seeds/$target")
    fi
    log=$(mktemp)
    started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    begin=$(date +%s)
    set +e
    "$bin" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" "${seeds[@]}" 2>&1 | tee "$log"
    code=${PIPESTATUS[0]}
    set -e
    took=$(($(date +%s) - begin))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rm -f "$log"
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
    printf '%-16s %-12s %12s %8s %5s  %s\n' target fingerprint executions seconds runs \
        'failed runs (started)'
    awk -F '\t' 'NR > 1 {
        key = $2 "\t" $3
        if ($7 == "clean" || $7 == "stopped") { runs[key] += $5; secs[key] += $6; n[key]++ }
        else { bad[key] = bad[key] " " $1 }
    }
    END {
        for (k in runs) {
            split(k, part, "\t")
            printf "%-16s %-12s %12d %8d %5d  %s\n", part[1], part[2], runs[k], secs[k], n[k], bad[k]
        }
        for (k in bad) if (!(k in runs)) {
            split(k, part, "\t")
            printf "%-16s %-12s %12d %8d %5d  %s\n", part[1], part[2], 0, 0, 0, bad[k]
        }
    }' "$ledger" | sort
    ;;
*)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
