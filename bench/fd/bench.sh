#!/bin/sh
# The paper's large run: weak completeness with channels that drop a
# message sent to a full buffer (CHAN=I), the whole state space, checked by
# ftmc and by Spin on the same model file, each figure the median of REPS
# runs.
#
#   bench/fd/bench.sh                 # SPLIT and FIFO, BUF=1
#   BUFS="1 2" bench/fd/bench.sh      # BUF=2 too (large: see RESULTS.md)
#   REPS=5 TIME=30m bench/fd/bench.sh
#
# Spin runs as the differential tests run it, so that both tools store the
# same states: spin -a -o1 -o2 -o3 -DCHAN=I -DORDER=.. -DBUF=.. (spin's own
# cpp reads the models' macros), gcc -O2 -DSAFETY -DNOREDUCE, ./pan
# -m10000000 (the depth-first search is millions of steps deep). A second
# Spin row keeps its statement merging (no -o flags): fewer states, the
# figure a Spin user would see. ftmc runs breadth-first (its default) and
# depth-first. Seconds are CPU seconds (user + system) of the search
# process: the machine may be shared, wall time is not used. Memory is the
# peak resident set of the process (/usr/bin/time %M; pan's includes its
# 128 MB hash table and a depth-first stack sized by -m) and the state
# store: pan's "actual memory usage for states", ftmc's store (vectors,
# hash table and, breadth-first, parent indices).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
models=$root/examples/failure-detectors
REPS=${REPS:-3}
TIME=${TIME:-20m}
BUFS=${BUFS:-1}
ORDERS=${ORDERS:-SPLIT FIFO}
ALG=${ALG:-weak-completeness}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v spin >/dev/null || { echo "spin is not installed" >&2; exit 2; }
command -v gcc >/dev/null || { echo "gcc is not installed" >&2; exit 2; }
(cd "$root" && go build -o "$work/ftmc" ./cmd/ftmc)

median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

# one TOOL DIR CMD...: runs CMD REPS times in DIR, records CPU seconds and
# peak memory (KB) in DIR/TOOL.cpu, DIR/TOOL.mem and its output in
# DIR/TOOL.out.
one() {
	tool=$1 dir=$2
	shift 2
	: >"$dir/$tool.cpu"
	: >"$dir/$tool.mem"
	for _ in $(seq "$REPS"); do
		(cd "$dir" && /usr/bin/time -f '%U %S %M' -o "$tool.time" timeout "$TIME" "$@" >"$tool.out" 2>"$tool.err" || true)
		tail -1 "$dir/$tool.time" | awk '{print $1+$2}' >>"$dir/$tool.cpu"
		tail -1 "$dir/$tool.time" | awk '{print $3}' >>"$dir/$tool.mem"
	done
}

# row NAME TOOL DIR: one line of the table from the recorded runs.
row() {
	name=$1 tool=$2 dir=$3
	case $tool in
	spin*)
		states=$(awk '/states, stored/ {print $1; exit}' "$dir/$tool.out")
		store=$(awk '/actual memory usage for states/ {print $1 * 1048576; exit}' "$dir/$tool.out")
		trans=$(awk '/transitions \(= stored\+matched\)/ {print $1; exit}' "$dir/$tool.out")
		verdict=$(if grep -q 'errors: 0' "$dir/$tool.out"; then echo "no error"; elif grep -q 'errors:' "$dir/$tool.out"; then echo error; else echo "cut (TIME)"; fi)
		;;
	*)
		states=$(sed -n 's/.*"states": *\([0-9]*\).*/\1/p' "$dir/$tool.out" | head -1)
		store=$(sed -n 's/.*"store_bytes": *\([0-9]*\).*/\1/p' "$dir/$tool.out" | head -1)
		trans=$(sed -n 's/.*"transitions": *\([0-9]*\).*/\1/p' "$dir/$tool.out" | head -1)
		verdict=$(sed -n 's/.*"verdict": *"\([a-z]*\)".*/\1/p' "$dir/$tool.out" | head -1)
		;;
	esac
	cpu=$(median <"$dir/$tool.cpu")
	mem=$(median <"$dir/$tool.mem")
	awk -v n="$name" -v t="$tool" -v v="${verdict:-none}" -v s="${states:-0}" -v tr="${trans:-0}" -v c="$cpu" -v m="$mem" -v st="${store:-0}" 'BEGIN {
		printf "| %s | %s | %s | %d | %d | %.2f | %.3g | %.0f | %.1f | %.1f |\n", n, t, v, s, tr, c, s / (c > 0 ? c : 0.01), m / 1024, st / 1048576, st / (s > 0 ? s : 1) }'
	echo "$name $tool ${states:-0} $cpu $mem ${store:-0}" >>"$work/figures"
}

echo "| run | tool | verdict | states | transitions | CPU s | states/CPU s | peak MB | state store MB | bytes/state |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|"
: >"$work/figures"
for buf in $BUFS; do
	for order in $ORDERS; do
		name="$ALG CHAN=I ORDER=$order BUF=$buf"
		d=$work/$order-$buf
		mkdir -p "$d"
		cp "$models"/*.h "$models/$ALG.pml" "$d/"
		defs="-DCHAN=I -DORDER=$order -DBUF=$buf"
		mkdir -p "$d/o123" "$d/opt"
		cp "$d"/*.h "$d/$ALG.pml" "$d/o123/"
		cp "$d"/*.h "$d/$ALG.pml" "$d/opt/"
		(cd "$d/o123" && spin -a -o1 -o2 -o3 $defs "$ALG.pml" >/dev/null && gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16000 -o pan pan.c 2>gcc.err)
		(cd "$d/opt" && spin -a $defs "$ALG.pml" >/dev/null && gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16000 -o pan pan.c 2>gcc.err)
		one spin "$d/o123" ./pan -m10000000
		one spin "$d/opt" ./pan -m10000000
		fd="-D CHAN=I -D ORDER=$order -D BUF=$buf --time $TIME --json $ALG.pml"
		one ftmc-bfs "$d" "$work/ftmc" check $fd
		one ftmc-dfs "$d" "$work/ftmc" check --dfs $fd
		row "$name" spin "$d/o123"
		mv "$d/opt/spin.out" "$d/opt/spin-merged.out"
		mv "$d/opt/spin.cpu" "$d/opt/spin-merged.cpu"
		mv "$d/opt/spin.mem" "$d/opt/spin-merged.mem"
		row "$name" spin-merged "$d/opt"
		row "$name" ftmc-bfs "$d"
		row "$name" ftmc-dfs "$d"
	done
done

# Ratios ftmc / Spin (-o1 -o2 -o3) per run: states per CPU second, peak
# memory and state store; the state counts must agree.
echo
echo "| run | ftmc | states/CPU s ftmc / Spin | peak memory ftmc / Spin | state store ftmc / Spin |"
echo "|---|---|---:|---:|---:|"
awk '
	{ key = $1 " " $2 " " $3 " " $4; tool[key, $5] = 1; st[key, $5] = $6; cpu[key, $5] = $7; mem[key, $5] = $8; sto[key, $5] = $9; keys[key] = 1 }
	END {
		for (k in keys) for (t = 0; t < 2; t++) {
			f = t == 0 ? "ftmc-bfs" : "ftmc-dfs"
			if (!((k, "spin") in tool) || !((k, f) in tool)) continue
			if (st[k, "spin"] != st[k, f]) printf "%s: spin stores %s states, %s %s\n", k, st[k, "spin"], f, st[k, f] > "/dev/stderr"
			rs = st[k, "spin"] / (cpu[k, "spin"] > 0 ? cpu[k, "spin"] : 0.01)
			rf = st[k, f] / (cpu[k, f] > 0 ? cpu[k, f] : 0.01)
			printf "| %s | %s | %.2f | %.2f | %.2f |\n", k, f, rf / rs, mem[k, f] / mem[k, "spin"], sto[k, f] / (sto[k, "spin"] > 0 ? sto[k, "spin"] : 1)
		}
	}' "$work/figures" | sort
