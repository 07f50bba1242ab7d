#!/usr/bin/env bash
# ftmc with no flags against Spin with its defaults, as their users run them:
# wall time to the verdict, Spin's including spin -a and gcc
# (spin -a; gcc -O2 -DSAFETY pan.c; ./pan -m10000000: statement merging and
# partial-order reduction on in both). REPS runs each (default 3); the medians
# are printed with the states each stored.
#   FTMC=/tmp/ftmc bench/explicit/defaults.sh      (from the repository root)
set -euo pipefail
FTMC=${FTMC:-ftmc}
REPS=${REPS:-3}
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
row() { # model macro...
  local f=$1; shift
  local D=() SD=() ft=() st=() fs="" ss="" d
  for m in "$@"; do D+=(-D "$m"); SD+=("-D$m"); done
  d=$(mktemp -d)
  cp "$f" "$d/m.pml"
  for _ in $(seq "$REPS"); do
    local s e
    s=$(now); out=$("$FTMC" check "$f" "${D[@]}" --json || true); e=$(now)
    ft+=("$(echo "$e - $s" | bc)")
    fs=$(echo "$out" | grep -o '"states": *[0-9]*' | head -1 | grep -o '[0-9]*$')
    s=$(now)
    (cd "$d" && spin -a "${SD[@]}" m.pml >/dev/null && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m10000000 >out.txt 2>&1 || true)
    e=$(now)
    st+=("$(echo "$e - $s" | bc)")
    ss=$(grep -m1 "states, stored" "$d/out.txt" | awk '{print $1}')
  done
  rm -rf "$d"
  local fm sm
  fm=$(printf '%s\n' "${ft[@]}" | median)
  sm=$(printf '%s\n' "${st[@]}" | median)
  printf '| %s %s | %s | %.2f | %s | %.2f | %.2f |\n' "$(basename "$f")" "$*" "$fs" "$fm" "$ss" "$sm" "$(echo "$fm / $sm" | bc -l)"
}
echo "| model | ftmc states | ftmc s | Spin states | Spin s | ratio |"
echo "|---|---:|---:|---:|---:|---:|"
row bench/explicit/models/leader.pml N=6 C=2
row bench/explicit/models/peterson.pml N=4
row testdata/corpus/philosophers.pml N=9 ORDERED
row testdata/corpus/atomic_mutex.pml N=6
row testdata/corpus/leader_ring.pml N=9
