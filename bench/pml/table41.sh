#!/bin/bash
# Table 4.1 of the thesis (parameterized verification) with ftmc verify,
# from the thesis's own models (fmcad13), with both engines: the schemas
# (the default) and the counter abstraction with refinement (--engine
# cegar, the thesis's method). Each row runs three times per engine; the
# median wall time is printed, with the refinements and abstract states of
# the cegar run next to the thesis's refinements (#R) and total time.
# (Table 2.1, the instances: bench/table21.)
# Usage, from the repository:
#   go build -o /tmp/ftmc ./cmd/ftmc && FTMC=/tmp/ftmc bench/pml/table41.sh
B=${SHARED:-../shared}/benchmarks/bymc/fmcad13
F=${FTMC:-ftmc}
median() { sort -n | sed -n 2p; }
secs() { local s e; s=$(date +%s.%N); "$@" >/tmp/thesis.out 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
verdict() { sed -n "s/^$1: \([a-z]*\).*/\1/p" /tmp/thesis.out | head -1; }
# run MODEL SPEC [FLAGS]: the median of three wall times, then the verdict
# of the last run.
run() { local t; t=$(for i in 1 2 3; do secs timeout 600 $F verify $B/$1 $2 -q "${@:3}"; done | median); echo "$t $(verdict $2)"; }

printf "| algorithm | RC | model | spec | thesis | thesis #R | thesis s | schema | schema s | cegar | cegar #R | abstract states | cegar s |\n"
printf "|---|---|---|---|---|---:|---:|---|---:|---|---:|---:|---:|\n"
while read alg rc model spec exp r tot; do
  read ts v < <(run $model $spec)
  read tc vc < <(run $model $spec --engine cegar)
  fig=$(timeout 600 $F verify $B/$model $spec --engine cegar --json | python3 -c '
import json, sys
v = json.load(sys.stdin)["verdicts"][0]["stats"]
print(int(next(x["value"] for x in v["extra"] if x["name"] == "refinements")), v["states"])')
  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %.1f |\n" "$alg" "$rc" "$model" "$spec" "$exp" "$r" "$tot" "${v:-?}" "$ts" "${vc:-?}" ${fig:-? ?} "$tc"
done <<'ROWS'
BYZ (A) bcast-byz.pml unforg holds 0 4
BYZ (A) bcast-byz.pml corr holds 10 32
BYZ (A) bcast-byz.pml relay holds 10 24
SYMM (A) bcast-symm.pml unforg holds 0 1
SYMM (A) bcast-symm.pml corr holds 2 3
SYMM (A) bcast-symm.pml relay holds 12 16
OMIT (A) bcast-omit.pml unforg holds 0 1
OMIT (A) bcast-omit.pml corr holds 5 6
OMIT (A) bcast-omit.pml relay holds 5 10
CLEAN (A) bcast-clean.pml unforg holds 0 2
CLEAN (A) bcast-clean.pml corr holds 4 8
CLEAN (A) bcast-clean.pml relay holds 13 31
FBC - bcast-fisman-crash.pml unforg holds 0 1
FBC - bcast-fisman-crash.pml fisman_kupferman_lustig holds 0 1
FBC - bcast-fisman-crash.pml relay holds 0 1
FBC - bcast-fisman-crash.pml corr violated 0 1
BYZ (B) bcast-byz-FleTp1.pml unforg violated 9 56
BYZ (B) bcast-byz-FleTp1.pml corr violated 11 52
BYZ (B) bcast-byz-FleTp1.pml relay violated 10 17
BYZ (C) bcast-byz-Nge3T.pml unforg holds 0 5
BYZ (C) bcast-byz-Nge3T.pml corr holds 9 32
BYZ (C) bcast-byz-Nge3T.pml relay violated 30 78
SYMM (B) bcast-symm-FleTp1.pml unforg violated 0 2
SYMM (B) bcast-symm-FleTp1.pml corr violated 2 4
SYMM (B) bcast-symm-FleTp1.pml relay holds 8 12
OMIT (D) bcast-omit-Nge2T.pml unforg holds 0 1
OMIT (D) bcast-omit-Nge2T.pml corr violated 0 2
OMIT (D) bcast-omit-Nge2T.pml relay violated 0 2
ROWS
