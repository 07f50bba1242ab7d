#!/usr/bin/env bash
# Reproduces the results of docs/case-studies/failure-detectors.md: the
# sweeps of all four models, the whole state spaces, the monitors, Spin's
# figures for the paper's Table 1, and the message sequence charts.
#
#   examples/failure-detectors/reproduce.sh [OUT]    (default /tmp/ftmc-fd)
#
# TIME is the time limit per run (default 20m); SPIN=0 leaves Spin out;
# CHARTS=DIR also writes the charts there (the page's are in
# docs/case-studies/img). A run cut short by TIME says unknown. Expect a few
# hours on two cores: the CHAN=I runs with BUF=2 are large.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-/tmp/ftmc-fd}
time=${TIME:-20m}
mkdir -p "$out"
ftmc="$out/ftmc"
(cd "$root" && go build -o "$ftmc" ./cmd/ftmc)
cd "$here"
algs="weak-completeness weak-accuracy strong-accuracy strong-completeness"

log() { echo "== $*" >&2; }

# 1. Every algorithm, channel policy, order and buffer size; breadth-first,
# so a violation's row counts the states stored until the first
# counterexample in BFS order.
for a in $algs; do
	log "sweep $a"
	"$ftmc" sweep "$a.pml" -D CHAN=B,R,I -D ORDER=SPLIT,FIFO -D BUF=1,2 \
		--time "$time" --csv --trails "$out/trails" >"$out/$a.csv" || true
done

# 1b. FIFO channels that block when full, under the waiting semantics of
# the paper's UPPAAL, mCRL2 and FDR2 models (WAIT; see fd-state.h).
for a in $algs; do
	log "FIFO waits $a"
	"$ftmc" sweep "$a.pml" -D CHAN=B -D ORDER=FIFO -D BUF=1,2 -D WAIT=UPPAAL,MCRL2,FDR2 \
		--time "$time" --csv >"$out/$a-wait.csv" || true
done

# 2. Whole state spaces of the deadlocking configurations (every waiting
# point a valid end state, as pan -E).
for a in $algs; do
	log "whole spaces $a"
	"$ftmc" sweep "$a.pml" -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=SPLIT,FIFO -D BUF=1,2 \
		--time "$time" --csv >"$out/$a-whole.csv" || true
done

# 3. The monitors.
log monitors
"$ftmc" sweep weak-completeness.pml -D PROP=WC -D CHAN=I -D ORDER=SPLIT,FIFO -D OSC=1,2,3 \
	--time "$time" --csv >"$out/monitor-wc.csv" || true
"$ftmc" sweep weak-accuracy.pml -D PROP=EWA -D DEADLOCK=IGNORE -D CHAN=B,I -D ORDER=SPLIT,FIFO \
	--time "$time" --csv >"$out/monitor-ewa.csv" || true
"$ftmc" sweep strong-accuracy.pml -D PROP=SA -D DEADLOCK=IGNORE -D CHAN=B,I -D ORDER=SPLIT,FIFO \
	--time "$time" --csv >"$out/monitor-sa.csv" || true
"$ftmc" sweep strong-completeness.pml -D PROP=SC -D DEADLOCK=IGNORE -D CHAN=B,I -D ORDER=SPLIT,FIFO \
	-D OSC=1,2,3,4,5,6,7 --time "$time" --csv >"$out/monitor-sc.csv" || true

# 3b. LTL (PROP=LTL) in the deadlock-free FIFO setting, under weak
# fairness; the formulas and the fairness they assume are in fd-tasks.h.
log LTL
ltl="-D PROP=LTL -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2 --fairness weak --time $time --json"
for run in "weak-completeness weak_completeness" "weak-completeness weak_completeness_wf" \
	"weak-completeness permanent_suspicion" "weak-completeness strong_completeness" \
	"weak-completeness strong_accuracy" "weak-accuracy eventual_weak_accuracy" \
	"strong-accuracy strong_accuracy" "strong-completeness strong_completeness"; do
	set -- $run
	"$ftmc" check "$1.pml" --ltl "$2" $ltl >"$out/ltl-$1-$2.json" || true
done

# 4. Spin on the paper's Table 1 (weak completeness, SPLIT, B and R) and on
# the CHAN=I run: breadth-first to the first error, and whole spaces.
if [ "${SPIN:-1}" != 0 ] && command -v spin >/dev/null && command -v gcc >/dev/null; then
	spinrun() { # name, pan flags, cc flags, spin flags...
		local name=$1 pflags=$2 cflags=$3
		shift 3
		local d="$out/spin/$name"
		mkdir -p "$d"
		cp "$here"/*.h "$here/weak-completeness.pml" "$d/"
		(cd "$d" && spin -a "$@" weak-completeness.pml >/dev/null &&
			gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16000 $cflags -o pan pan.c &&
			{ /usr/bin/time -f "%e s %M KB" timeout "$time" ./pan -m100000000 $pflags >pan.out 2>time.out || true; })
		printf '%s\t%s\t%s\t%s\n' "$name" \
			"$(awk '/states, stored/ {print $1}' "$d/pan.out")" \
			"$(grep -m1 -o 'invalid end state\|assertion violated' "$d/pan.out" || echo none)" \
			"$(tail -1 "$d/time.out")" >>"$out/spin.tsv"
	}
	: >"$out/spin.tsv"
	for c in B R; do
		for b in 1 2; do
			log "spin $c $b"
			spinrun "bfs-$c-SPLIT-$b" "" "-DBFS" -DCHAN=$c -DORDER=SPLIT -DBUF=$b
		done
	done
	for b in 1 2; do
		spinrun "whole-B-SPLIT-$b" "" "" -DCHAN=B -DORDER=SPLIT -DBUF=$b -DDEADLOCK=IGNORE
	done
	spinrun "whole-I-SPLIT-1" "" "" -DCHAN=I -DORDER=SPLIT -DBUF=1
	spinrun "whole-I-SPLIT-1-o123" "" "" -o1 -o2 -o3 -DCHAN=I -DORDER=SPLIT -DBUF=1
	# weak completeness in LTL with weak fairness (pan -a -f); spin takes
	# minutes to translate the formula, LTL_ONLY keeps the one block
	d="$out/spin/ltl-weak_completeness"
	mkdir -p "$d"
	cp "$here"/*.h "$here/weak-completeness.pml" "$d/"
	(cd "$d" && spin -a -DPROP=LTL -DLTL_ONLY=1 -DCHAN=B -DORDER=FIFO -DBUF=1 -DWAIT=FDR2 weak-completeness.pml >/dev/null &&
		gcc -O2 -DNOREDUCE -DNFAIR=3 -DMEMLIM=16000 -o pan pan.c &&
		{ /usr/bin/time -f "%e s %M KB" timeout "$time" ./pan -a -f -m10000000 >pan.out 2>time.out || true; })
	printf '%s\t%s\t%s\t%s\n' ltl-weak_completeness \
		"$(awk '/states, stored/ {print $1}' "$d/pan.out")" \
		"$(grep -m1 -o 'acceptance cycle' "$d/pan.out" || echo none)" \
		"$(tail -1 "$d/time.out")" >>"$out/spin.tsv"
fi

# 5. The charts.
charts=${CHARTS:-$out/img}
mkdir -p "$charts"
log charts
chart() { # file, model, flags...
	local file=$1 model=$2
	shift 2
	"$ftmc" check "$model" "$@" --quiet --msc "$charts/$file" >/dev/null || true
}
chart fig13-deadlock-weak-accuracy-B-SPLIT-1.svg weak-accuracy.pml -D CHAN=B -D ORDER=SPLIT -D BUF=1
chart deadlock-weak-completeness-B-SPLIT-1.svg weak-completeness.pml -D CHAN=B -D ORDER=SPLIT -D BUF=1
chart deadlock-weak-completeness-B-FIFO-1.svg weak-completeness.pml -D CHAN=B -D ORDER=FIFO -D BUF=1
chart deadlock-weak-completeness-B-FIFO-1-mcrl2.svg weak-completeness.pml -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=MCRL2
chart deadlock-weak-completeness-B-FIFO-1-fdr2-no-crash.svg weak-completeness.pml -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2 -D CRASH=NONE
chart overflow-weak-completeness-R-SPLIT-1.svg weak-completeness.pml -D CHAN=R -D ORDER=SPLIT -D BUF=1
chart fig12-oscillation-1.svg weak-completeness.pml -D PROP=WC -D CHAN=I -D ORDER=SPLIT -D BUF=1
chart fig12-oscillation-2.svg weak-completeness.pml -D PROP=WC -D OSC=2 -D CHAN=I -D ORDER=SPLIT -D BUF=1
chart lost-reply-weak-accuracy-I-FIFO-1.svg weak-accuracy.pml -D PROP=EWA -D CHAN=I -D ORDER=FIFO -D BUF=1
chart g-oscillation-strong-completeness-B-FIFO-1.svg strong-completeness.pml -D PROP=SC -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=FIFO -D BUF=1
log "done: $out"
