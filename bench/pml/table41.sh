#!/bin/bash
# Table 4.1 of the thesis (parameterized verification) with ftmc verify,
# from the thesis's own models (fmcad13). Each row runs three times; the
# median wall time is printed. (Table 2.1, the instances: bench/table21.)
# Usage, from the repository:
#   go build -o /tmp/ftmc ./cmd/ftmc && FTMC=/tmp/ftmc bench/pml/table41.sh
B=${SHARED:-../shared}/benchmarks/bymc/fmcad13
F=${FTMC:-ftmc}
median() { sort -n | sed -n 2p; }
secs() { local s e; s=$(date +%s.%N); "$@" >/tmp/thesis.out 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }

printf "| algorithm | RC | model | spec | thesis | ftmc | ftmc s |\n|---|---|---|---|---|---|---:|\n"
while read alg rc model spec exp; do
  ts=$(for i in 1 2 3; do secs timeout 600 $F verify $B/$model $spec -q; done | median)
  v=$(sed -n "s/^$spec: \([a-z]*\).*/\1/p" /tmp/thesis.out | head -1)
  printf "| %s | %s | %s | %s | %s | %s | %.1f |\n" "$alg" "$rc" "$model" "$spec" "$exp" "${v:-$(head -c 100 /tmp/thesis.out)}" "$ts"
done <<'ROWS'
BYZ (A) bcast-byz.pml unforg holds
BYZ (A) bcast-byz.pml corr holds
BYZ (A) bcast-byz.pml relay holds
SYMM (A) bcast-symm.pml unforg holds
SYMM (A) bcast-symm.pml corr holds
SYMM (A) bcast-symm.pml relay holds
OMIT (A) bcast-omit.pml unforg holds
OMIT (A) bcast-omit.pml corr holds
OMIT (A) bcast-omit.pml relay holds
CLEAN (A) bcast-clean.pml unforg holds
CLEAN (A) bcast-clean.pml corr holds
CLEAN (A) bcast-clean.pml relay holds
FBC - bcast-fisman-crash.pml unforg holds
FBC - bcast-fisman-crash.pml fisman_kupferman_lustig holds
FBC - bcast-fisman-crash.pml relay holds
FBC - bcast-fisman-crash.pml corr violated
BYZ (B) bcast-byz-FleTp1.pml unforg violated
BYZ (B) bcast-byz-FleTp1.pml corr violated
BYZ (B) bcast-byz-FleTp1.pml relay violated
BYZ (C) bcast-byz-Nge3T.pml unforg holds
BYZ (C) bcast-byz-Nge3T.pml corr holds
BYZ (C) bcast-byz-Nge3T.pml relay violated
SYMM (B) bcast-symm-FleTp1.pml unforg violated
SYMM (B) bcast-symm-FleTp1.pml corr violated
SYMM (B) bcast-symm-FleTp1.pml relay holds
OMIT (D) bcast-omit-Nge2T.pml unforg holds
OMIT (D) bcast-omit-Nge2T.pml corr violated
OMIT (D) bcast-omit-Nge2T.pml relay violated
ROWS
