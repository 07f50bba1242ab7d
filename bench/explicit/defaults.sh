#!/usr/bin/env bash
# ftmc with no flags against Spin with its defaults, as their users run them:
# wall time to the verdict, Spin's including spin -a and gcc
# (spin -a; gcc -O2 -DSAFETY pan.c; ./pan -m10000000: statement merging and
# partial-order reduction on in both). REPS runs each (default 3); the medians
# are printed with the states each stored and each tool's outcome.
#   FTMC=/tmp/ftmc bench/explicit/defaults.sh      (from the repository root)
# BIG=1 adds the failure detector at BUF=2 (145 million states without
# reduction; one run of each tool, minutes).
set -euo pipefail
FTMC=${FTMC:-ftmc}
REPS=${REPS:-3}
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# spin_outcome OUT: what pan said: no error, the error, or why it stopped.
spin_outcome() {
  if grep -q "out of memory\|MEMLIM" "$1"; then echo "out of memory"
  elif grep -q "errors: 0" "$1"; then echo "no error"
  elif grep -q "errors: [1-9]" "$1"; then grep -m1 -o "pan:[0-9]*: [^(]*" "$1" | sed 's/^pan:[0-9]*: //; s/ *$//'
  else echo "stopped"
  fi
}
row() { # model macro...
  local f=$1; shift
  local D=() SD=() ft=() st=() fs="" ss="" fv="" sv="" d
  for m in "$@"; do D+=(-D "$m"); SD+=("-D$m"); done
  d=$(mktemp -d)
  # the model and the headers it includes
  cp "$(dirname "$f")"/*.h "$d/" 2>/dev/null || true
  cp "$f" "$d/m.pml"
  for _ in $(seq "$REPS"); do
    local s e
    s=$(now); out=$("$FTMC" check "$f" "${D[@]}" --json || true); e=$(now)
    ft+=("$(echo "$e - $s" | bc)")
    fs=$(echo "$out" | grep -o '"states": *[0-9]*' | head -1 | grep -o '[0-9]*$')
    fv=$(echo "$out" | grep -o '"verdict": *"[a-z]*"' | head -1 | sed 's/.*"\([a-z]*\)"$/\1/')
    s=$(now)
    (cd "$d" && spin -a "${SD[@]}" m.pml >/dev/null && gcc -O2 -DSAFETY -o pan pan.c 2>/dev/null && ./pan -m10000000 >out.txt 2>&1 || true)
    e=$(now)
    st+=("$(echo "$e - $s" | bc)")
    ss=$(grep -m1 "states, stored" "$d/out.txt" | awk '{print $1}')
    sv=$(spin_outcome "$d/out.txt")
  done
  rm -rf "$d"
  local fm sm
  fm=$(printf '%s\n' "${ft[@]}" | median)
  sm=$(printf '%s\n' "${st[@]}" | median)
  printf '| %s %s | %s | %s | %.2f | %s | %s | %.2f | %.2f |\n' "$(basename "$f")" "$*" "$fv" "$fs" "$fm" "$sv" "$ss" "$sm" "$(echo "$fm / $sm" | bc -l)"
}
echo "| model | ftmc verdict | ftmc states | ftmc s | Spin outcome | Spin states | Spin s | ratio |"
echo "|---|---|---:|---:|---|---:|---:|---:|"
row bench/explicit/models/leader.pml N=6 C=2
row bench/explicit/models/peterson.pml N=4
row testdata/corpus/philosophers.pml N=9 ORDERED
row testdata/corpus/atomic_mutex.pml N=6
row testdata/corpus/leader_ring.pml N=9
FD=examples/failure-detectors/weak-completeness.pml
row $FD CHAN=I ORDER=SPLIT BUF=1
row $FD CHAN=I ORDER=FIFO BUF=1
if [ -n "${BIG:-}" ]; then
  REPS=1 row $FD CHAN=I ORDER=FIFO BUF=2
  REPS=1 row $FD CHAN=I ORDER=SPLIT BUF=2
fi
