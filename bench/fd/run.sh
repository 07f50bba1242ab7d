#!/bin/sh
# Regenerates the tables and charts of docs/case-studies/failure-detectors.md
# from the models in examples/failure-detectors: every algorithm x channel
# policy x order x buffer size (ftmc sweep, breadth-first: a violation's
# row counts the states until the first counterexample), the whole state
# spaces of the deadlocking configurations (DEADLOCK=IGNORE), the monitor
# and ltl runs the model headers declare, Spin's breadth-first runs for the
# paper's Table 1, the message sequence charts; then writes the tables into
# the page.
#
#   bench/fd/run.sh [OUT]          (default /tmp/ftmc-fd; the raw CSVs stay there)
#
# The models are taken from the commit REV (default HEAD; REV=. takes the
# working tree), so that the page's figures belong to committed models.
# TIME is the limit per run (default 2m: a run cut short is unknown, with
# the states reached); JOBS runs that many combinations side by side
# (default 1); STEPS picks steps (default "sweep whole fifo claims spin
# charts page"). Takes about an hour on two cores with the defaults.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/ftmc-fd}
TIME=${TIME:-2m}
JOBS=${JOBS:-1}
STEPS=${STEPS:-sweep whole fifo claims spin charts page}
REV=${REV:-HEAD}
img=$root/docs/case-studies/img
page=$root/docs/case-studies/failure-detectors.md
algs="weak-completeness weak-accuracy strong-accuracy strong-completeness"
mkdir -p "$out"
ftmc=$out/ftmc
(cd "$root" && go build -o "$ftmc" ./cmd/ftmc)
models=$out/src/examples/failure-detectors
rm -rf "$out/src"
mkdir -p "$out/src"
if [ "$REV" = . ]; then
	cp -r "$root/examples" "$out/src/"
else
	git -C "$root" archive "$REV" examples/failure-detectors | tar -x -C "$out/src"
fi
if [ "$REV" = . ]; then
	echo "the working tree of $(git -C "$root" log -1 --format=%h)" >"$out/models.rev"
else
	git -C "$root" log -1 --format='%h (%ad)' --date=short "$REV" -- examples/failure-detectors >"$out/models.rev"
fi
cd "$models"

log() { echo "== $(date +%H:%M:%S) $*" >&2; }
want() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
sweep() { "$ftmc" sweep "$@" --time "$TIME" -j "$JOBS" --csv || true; }

# 1. Every algorithm, channel policy, order and buffer size, breadth-first.
if want sweep; then
	for a in $algs; do
		log "sweep $a"
		sweep "$a.pml" -D CHAN=B,R,I -D ORDER=SPLIT,FIFO -D BUF=1,2 >"$out/sweep-$a.csv"
	done
fi

# 2. Whole state spaces where the search stops at a deadlock: every waiting
# point a valid end state (DEADLOCK=IGNORE, as pan -E). An assertion (R)
# has no such switch: ftmc stops at the first violation.
if want whole; then
	for a in $algs; do
		log "whole spaces $a"
		sweep "$a.pml" -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=SPLIT,FIFO -D BUF=1,2 >"$out/whole-$a.csv"
	done
fi

# 3. FIFO channels under each model's way of waiting for room in a full
# channel (WAIT: the paper's UPPAAL, mCRL2 and FDR2 models), where the
# models have that macro.
if want fifo && grep -q 'WAIT' fd-state.h; then
	for a in $algs; do
		log "fifo $a"
		sweep "$a.pml" -D WAIT=UPPAAL,MCRL2,FDR2 -D CHAN=B -D ORDER=FIFO -D BUF=1,2 >"$out/fifo-$a.csv"
	done
fi

# 4. The runs of the monitors (PROP=...) and of the ltl blocks that the
# model headers declare, each with what the header expects.
if want claims; then
	log "claims of the model headers"
	(cd "$root" && go run ./bench/fd claims "$out" "$TIME" "$models")
fi

# 5. Spin, breadth-first until its first error, on the paper's Table 1
# (weak completeness, SPLIT, B and R): spin -a -o1 -o2 -o3 stores the same
# states as ftmc.
if want spin && command -v spin >/dev/null && command -v gcc >/dev/null; then
	: >"$out/spin-bfs.tsv"
	for c in B R; do
		for b in 1 2; do
			log "spin $c $b"
			d=$out/spin/$c-$b
			mkdir -p "$d"
			cp ./*.h weak-completeness.pml "$d/"
			(cd "$d" && spin -a -o1 -o2 -o3 -DCHAN=$c -DORDER=SPLIT -DBUF=$b weak-completeness.pml >/dev/null &&
				gcc -O2 -DSAFETY -DNOREDUCE -DBFS -DMEMLIM=16000 -o pan pan.c &&
				{ /usr/bin/time -f '%U %S' -o time timeout "$TIME" ./pan >pan.out 2>&1 || true; })
			# pan's breadth-first search also stores the states inside
			# atomic sequences; "nominal" states are the others.
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$b" \
				"$(awk '/states, stored/ {print $1; exit}' "$d/pan.out")" \
				"$(grep -m1 -o 'invalid end state\|assertion violated' "$d/pan.out" || echo none)" \
				"$(tail -1 "$d/time" | awk '{print $1 + $2}')" \
				"$(awk '/nominal states/ {print $1; exit}' "$d/pan.out")" >>"$out/spin-bfs.tsv"
		done
	done
fi

# 6. The charts of the page.
if want charts; then
	log charts
	mkdir -p "$img"
	chart() { # file, model, flags...
		f=$1 m=$2
		shift 2
		"$ftmc" check "$m" "$@" --quiet --msc "$img/$f" >/dev/null || true
	}
	chart deadlock-weak-completeness-B-SPLIT-1.svg weak-completeness.pml -D CHAN=B -D ORDER=SPLIT -D BUF=1
	chart overflow-weak-completeness-R-SPLIT-1.svg weak-completeness.pml -D CHAN=R -D ORDER=SPLIT -D BUF=1
	chart fig13-deadlock-weak-accuracy-B-SPLIT-1.svg weak-accuracy.pml -D CHAN=B -D ORDER=SPLIT -D BUF=1
	chart fig12-oscillation-1.svg weak-completeness.pml -D PROP=WC -D OSC=1 -D CHAN=I -D ORDER=SPLIT -D BUF=1
	chart fig12-oscillation-2.svg weak-completeness.pml -D PROP=WC -D OSC=2 -D CHAN=I -D ORDER=SPLIT -D BUF=1
	chart fifo-weak-completeness-B-FIFO-1.svg weak-completeness.pml -D CHAN=B -D ORDER=FIFO -D BUF=1
	if grep -q 'permanent_suspicion' fd-tasks.h; then
		chart ltl-permanent-suspicion.svg weak-completeness.pml --ltl permanent_suspicion --fairness weak -D PROP=LTL -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
	fi
	chart fifo-weak-completeness-R-FIFO-1.svg weak-completeness.pml -D CHAN=R -D ORDER=FIFO -D BUF=1
	if grep -q 'WAIT' fd-state.h; then
		chart fifo-weak-completeness-B-FIFO-1-mcrl2.svg weak-completeness.pml -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=MCRL2
		chart fifo-weak-completeness-B-FIFO-1-fdr2-nocrash.svg weak-completeness.pml -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2 -D CRASH=NONE
	fi
fi

# 7. The tables into the page, between its "generated" markers.
if want page; then
	log page
	(cd "$root" && go run ./bench/fd page "$out" "$page")
fi
log "done: $out"
