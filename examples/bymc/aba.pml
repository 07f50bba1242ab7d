/* Asynchronous Byzantine agreement of Bracha and Toueg, in ByMC's
   Parametric Promela: one round of the broadcast primitive of Bracha and
   Toueg, "Asynchronous consensus and broadcast protocols", J. ACM 32(4),
   1985, as Gmeiner's thesis models it (Sec. 5.3, Algorithm 5.2,
   Listing 21).

   A process that has the broadcaster's message (V1) sends ECHO to all
   (EC).  A process sends ECHO, and then READY (RD), once it has received
   more than (n + t)/2 ECHOs or t + 1 READYs; it accepts (AC) once it has
   received 2t + 1 READYs.  Only the N - F correct processes are
   modelled; the F Byzantine ones may send ECHO and READY to anybody, so a
   correct process receives up to F messages of each type beyond those the
   correct processes sent (nsnte + F, nsntr + F).

   The properties (the thesis's Sec. 2.4.1):
   (U) unforg: if no correct process has the message, none accepts;
   (C) corr:   if every correct process has it, some correct one accepts;
   (R) relay:  if a correct process accepts, every correct one accepts
               (Listing 21 calls it agreement).

   Resilience condition n > 3t, t >= f >= 0, t >= 1.  Listing 21 also
   assumes (n + t)/2 + 1 > 2t + 1 to fix the order of the thresholds for
   ByMC's abstraction; that leaves out n = 3t + 1 (N=4, T=1), and ftmc's
   abstraction splits the orders itself, so the assumption is not made here.
   The two wrong conditions of Table 5.1 are switched on with -D:
   FleTp1 allows f <= t + 1 (row T2: N=5, T=1, F=2), and Ngt2T allows
   n > 2t instead of n > 3t (row T3: N=5, T=2, F=2).

   Row T1 (N=5, T=1, F=1; 131 s with Spin in the thesis, 4 million
   states) holds; it takes ftmc 20 to 50 s on a shared 2-core machine:
   ftmc: check --param N=5,T=1,F=1 --ltl relay --assume fairness
   expect relay: holds
   expect: slow

   The smallest instance, every property:
   ftmc: check --param N=4,T=1,F=1 --assume fairness
   expect unforg: holds
   expect corr: holds
   expect relay: holds

   Row T2, one fault more than designed for: the two faulty processes
   alone make t + 1 READYs, so a correct process that nobody sent the
   message to sends READY and accepts with them, and the others never do.
   Unforgeability and correctness fail too (as in ../threshold/aba-f-le-t1.ta):
   ftmc: check -D FleTp1 --param N=5,T=1,F=2 --assume fairness
   expect unforg: violated
   expect corr: violated
   expect relay: violated

   Row T3, n > 3t broken: the n - f = 3 correct processes cannot make the
   2t + 1 = 5 READYs to accept alone; two processes accept with READYs of
   the faulty ones, which leave the third at 4.  Correctness fails too
   (as in ../threshold/aba-n-ge-3t.ta), unforgeability holds:
   ftmc: check -D Ngt2T --param N=5,T=2,F=2 --assume fairness
   expect unforg: holds
   expect corr: violated
   expect relay: violated
*/

#define V0 0   /* has not received the broadcaster's message */
#define V1 1   /* has received it */
#define EC 2   /* sent ECHO */
#define RD 3   /* sent ECHO and READY */
#define AC 4   /* accepted */

symbolic int N;     /* the number of processes */
symbolic int T;     /* the number of faults tolerated */
symbolic int F;     /* the number of faulty processes */

assume(T >= 1);
assume(F >= 0);
#ifdef Ngt2T
assume(N > 2 * T);
#else
assume(N > 3 * T);
#endif
#ifdef FleTp1
assume(F <= T + 1);
#else
assume(F <= T);
#endif

/* More than (n + t)/2 ECHOs.  ftmc verify abstracts no division: with
   -D QUOTIENT the quotient is a parameter of its own, as in ByMC's models. */
#ifdef QUOTIENT
symbolic int NplusTdiv2;
assume(2 * NplusTdiv2 == N + T || 2 * NplusTdiv2 == N + T - 1);
#define ECHO_THRESHOLD (NplusTdiv2 + 1)
#else
#define ECHO_THRESHOLD ((N + T) / 2 + 1)
#endif

int nsnte;          /* ECHOs sent by correct processes */
int nsntr;          /* READYs sent by correct processes */

atomic prec_init = all(Proc@end);
atomic prec_unforg = all(Proc:pc == V0);
atomic prec_corr = all(Proc:pc == V1);
atomic ex_acc = some(Proc:pc == AC);
atomic all_acc = all(Proc:pc == AC);
atomic in_transit_e = some(Proc:nrcvde < nsnte);
atomic in_transit_r = some(Proc:nrcvdr < nsntr);

active [N - F] proctype Proc() {
  byte pc = V0, next_pc = V0;
  int nrcvde = 0, next_nrcvde = 0;
  int nrcvdr = 0, next_nrcvdr = 0;

  if                            /* the broadcaster's message, or not */
  :: pc = V0;
  :: pc = V1;
  fi;
end:
  do
  :: atomic {
       /* receive at most one ECHO and one READY, of correct or faulty
          processes */
       if
       :: nrcvde < nsnte + F -> next_nrcvde = nrcvde + 1;
       :: next_nrcvde = nrcvde;
       fi;
       if
       :: nrcvdr < nsntr + F -> next_nrcvdr = nrcvdr + 1;
       :: next_nrcvdr = nrcvdr;
       fi;
       if
       :: pc == V1 -> next_pc = EC;
       :: pc == V0 && (next_nrcvde >= ECHO_THRESHOLD || next_nrcvdr >= T + 1) ->
            next_pc = EC;
       :: pc == EC && (next_nrcvde >= ECHO_THRESHOLD || next_nrcvdr >= T + 1) ->
            next_pc = RD;
       :: pc == RD && next_nrcvdr >= 2 * T + 1 -> next_pc = AC;
       :: else -> next_pc = pc;
       fi;
       /* send ECHO, READY to all */
       if
       :: (pc == V0 || pc == V1) && next_pc == EC -> nsnte++;
       :: pc == EC && next_pc == RD -> nsntr++;
       :: else;
       fi;
       pc = next_pc;
       nrcvde = next_nrcvde;
       nrcvdr = next_nrcvdr;
       next_pc = V0;
       next_nrcvde = 0;
       next_nrcvdr = 0;
     }
  od;
}

/* every message of a correct process is received by every correct one */
ltl fairness { []<>(!in_transit_e && !in_transit_r) }

ltl unforg { []((prec_init && prec_unforg) -> [](!ex_acc)) }
ltl corr { []((prec_init && prec_corr) -> <>(ex_acc)) }
ltl relay { [](ex_acc -> <>(all_acc)) }
