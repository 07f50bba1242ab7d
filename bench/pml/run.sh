#!/bin/bash
# Runs ftmc verify on every Promela row of EXPECTED.tsv (sets fmcad13,
# isola18-promela, isola18-promela-bug): set, model, spec, options,
# expected verdict, wall time, ftmc verdicts. Usage, from the repository:
#   go build -o /tmp/ftmc ./cmd/ftmc && FTMC=/tmp/ftmc bench/pml/run.sh
# ROWS=REGEX runs only the rows it matches (e.g. ROWS=cc.pml); LIMIT=SECONDS
# bounds each row (default 600); ENGINE=cegar runs the counter abstraction
# with refinement instead of the schemas.
B=${SHARED:-../shared}/benchmarks/bymc
# Empty fields become "-": read would merge neighbouring tabs.
grep -E '^(fmcad13|isola18-promela)' $B/EXPECTED.tsv | grep -E -- "${ROWS:-.}" | awk -F'\t' -v OFS='\t' '{for(i=1;i<=NF;i++) if($i=="") $i="-"; print}' |
while IFS=$'\t' read set path spec opts exp src meas; do
  D=$(echo "$opts" | grep -o -- "-D [A-Za-z0-9_]*=[0-9]*" | tr "\n" " ")
  T=$(echo "$opts" | grep -o "piaDom.thresholds='[^']*'" | sed "s/piaDom.thresholds='//;s/'//")
  [ -n "$T" ] && T="--thresholds $T"
  s="$spec"; [ "${spec:0:1}" = "(" ] && s=all
  st=$(date +%s.%N)
  got=$(timeout ${LIMIT:-600} ${FTMC:-ftmc} verify $B/$path $s $D $T ${ENGINE:+--engine $ENGINE} -q 2>&1 | tr '\n' ' ' | cut -c1-300)
  en=$(date +%s.%N)
  printf "%s\t%s\t%s\t%s\t%.30s\t%.1fs\t%s\t%.60s\n" "$set" "$(basename $path)" "$spec" "$D $T" "$exp" "$(echo "$en - $st" | bc)" "$got" "$meas"
done
