#!/usr/bin/env bash
# bench/run.sh: the sampler's performance figures, in one run.
#
# Builds bench/cmd/benchscan, starts emulators (bttest) in processes of
# their own so that the scanner's memory is measured alone, loads the
# benchmark tables (20 top-level prefixes of Zipf-distributed sizes, one
# 8-byte cell per row), runs every measurement in a fresh process, the
# 1M-row ones in interleaved rounds (bare, full, sample), and prints the
# table the README quotes with a PASS or FAIL line per requirement; then
# the same for a 2M-row table behind an emulator answering SampleRowKeys
# with tablets, as Cloud Bigtable does (bench/cmd/benchscan cloud). Exits
# non-zero when a check fails.
#
#   bench/run.sh            # about 3 minutes on 2 cores, ~16 GB of RAM at peak
#   ROUNDS=9 bench/run.sh   # more rounds of the 1M-row runs (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
began=$(date +%s)
work=$(mktemp -d)
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

echo "building benchscan"
go build -o "$work/benchscan" ./bench/cmd/benchscan

# start_emulator NAME [SERVE FLAGS]: starts an emulator and waits until it
# has written its address and that of its control endpoint.
start_emulator() {
	"$work/benchscan" serve -addr-file "$work/$1.addr" -control-file "$work/$1.control" "${@:2}" >"$work/$1.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do
		[[ -s "$work/$1.addr" && -s "$work/$1.control" ]] && break
		sleep 0.1
	done
	[[ -s "$work/$1.addr" && -s "$work/$1.control" ]] || { echo "emulator $1 did not start:" >&2; cat "$work/$1.log" >&2; exit 1; }
}

# The 1M-row table gets an emulator of its own: bttest's garbage collector
# scans the emulator's whole heap, and a 5M-row neighbour (about 10 GB)
# would slow every scan of it.
start_emulator small
start_emulator big
"$work/benchscan" load -emulator "$(cat "$work/small.addr")" -tables bench1m
"$work/benchscan" load -emulator "$(cat "$work/big.addr")" -tables bench500k,bench5m
loaded=$(date +%s)

status=0
"$work/benchscan" report -rounds "${ROUNDS:-5}" \
	-emulator "$(cat "$work/small.addr")" -control "$(cat "$work/small.control")" \
	-big-emulator "$(cat "$work/big.addr")" -big-control "$(cat "$work/big.control")" || status=$?
measured=$(date +%s)

# The Cloud-like part (issue 12) gets an emulator of its own once the
# others are gone, so that memory never holds both: its SampleRowKeys
# answers about 50 tablets, one large and one small, through
# internal/cloudlike, which also counts the rows each scan reads.
for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
pids=()
start_emulator cloud -tablets 50
"$work/benchscan" load -emulator "$(cat "$work/cloud.addr")" -tables cloud2m
"$work/benchscan" cloud -emulator "$(cat "$work/cloud.addr")" -control "$(cat "$work/cloud.control")" || status=$?
finished=$(date +%s)
echo
echo "loading and measuring the emulator tables took $((measured - began))s, the Cloud-like part $((finished - measured))s, the whole script $((finished - began))s"
exit "$status"
