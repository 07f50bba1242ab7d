/* Folklore reliable broadcast (FBC) under non-clean crashes, in ByMC's
   Parametric Promela: one broadcast of the reliable broadcast by message
   diffusion in Chandra and Toueg, "Unreliable failure detectors for
   reliable distributed systems", J. ACM 43(2), 1996, as Gmeiner's thesis
   models it (Sec. 5.2, Algorithm 5.1, Listing 20).

   A process that has the broadcaster's message (V1), or that has received
   an ECHO, sends ECHO to all and accepts (AC).  A process may crash (CR)
   instead of taking that step; a non-clean crash delivers the ECHO to some
   processes only, so the ECHOs of crashing processes are counted apart
   (nsntF): they may be received, but need not be.  Crashes are unbounded,
   so there is neither a fault bound nor a counter of crashed processes.
   As in Listing 20, a process crashes only in the step in which it would
   send: a crash at another time is one that nobody can tell from slowness
   (before) or that changes no property (after accepting).  Every process
   is modelled (active [N]); a crashed one is correct no more, so "all
   accept" means all that did not crash.

   The properties (the thesis's Sec. 2.4.1 and 5.2):
   (U) unforg: if no process has the message, no process ever accepts;
   (C) corr:   if every process has it, some process accepts;
   (R) relay:  if some process accepts, every process that does not crash
               accepts;
   (F) agree:  from some point on, either nobody accepts or every process
               that does not crash has accepted (Fisman, Kupferman and
               Lustig, TACAS 2008; Listing 20 calls it fkl).
   FBC satisfies U, R and F for every N, and violates C: every process
   with the message may crash instead of sending to all (Table 4.1).
   Table 5.1 checks U, R and F with Spin for N=2 (rows F1-F3) and N=6
   (F4-F6, 386 s to 1690 s there; measured only, README.md).

   ftmc: check --param N=2 --assume fairness
   expect unforg: holds
   expect corr: violated
   expect relay: holds
   expect agree: holds

   ftmc: check --param N=3 --assume fairness
   expect unforg: holds
   expect corr: violated
   expect relay: holds
   expect agree: holds

   For every N:
   ftmc: verify all
   expect unforg: holds
   expect corr: violated
   expect relay: holds
   expect agree: holds
*/

#define V0 0   /* has not received the broadcaster's message */
#define V1 1   /* has received it */
#define AC 2   /* sent ECHO to all and accepted */
#define CR 3   /* crashed */

symbolic int N;     /* the number of processes */
assume(N >= 1);

int nsnt;           /* ECHOs sent by processes that did not crash */
int nsntF;          /* ECHOs sent, to some processes only, by crashing ones */

atomic prec_init = all(Proc@end);
atomic prec_unforg = all(Proc:pc == V0);
atomic prec_corr = all(Proc:pc == V1);
atomic ex_acc = some(Proc:pc == AC);
atomic all_acc = all(Proc:pc == AC || Proc:pc == CR);
atomic in_transit = some(Proc:nrcvd < nsnt);

active [N] proctype Proc() {
  byte pc = V0, next_pc = V0;
  int nrcvd = 0, next_nrcvd = 0;

  if                            /* the broadcaster's message, or not */
  :: pc = V0;
  :: pc = V1;
  fi;
end:
  do
  :: atomic {
       /* receive at most one ECHO, of a correct or of a crashing process */
       if
       :: nrcvd < nsnt + nsntF -> next_nrcvd = nrcvd + 1;
       :: next_nrcvd = nrcvd;
       fi;
       /* relay and accept, or crash instead */
       if
       :: pc == V1 -> next_pc = AC;
       :: pc == V1 -> next_pc = CR;
       :: pc == V0 && next_nrcvd >= 1 -> next_pc = AC;
       :: pc == V0 && next_nrcvd >= 1 -> next_pc = CR;
       :: else -> next_pc = pc;
       fi;
       /* send ECHO to all; a crashing process to some */
       if
       :: (pc == V0 || pc == V1) && next_pc == AC -> nsnt++;
       :: (pc == V0 || pc == V1) && next_pc == CR -> nsntF++;
       :: else;
       fi;
       pc = next_pc;
       nrcvd = next_nrcvd;
       next_pc = V0;
       next_nrcvd = 0;
     }
  od;
}

/* every ECHO of a process that did not crash is received by everybody */
ltl fairness { []<>(!in_transit) }

ltl unforg { []((prec_init && prec_unforg) -> [](!ex_acc)) }
ltl corr { []((prec_init && prec_corr) -> <>(ex_acc)) }
ltl relay { [](ex_acc -> <>(all_acc)) }
ltl agree { [](prec_init -> <>[](!ex_acc || all_acc)) }
