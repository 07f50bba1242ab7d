/* Condition-based consensus, in ByMC's Parametric Promela: the binary
   version of the two-phase algorithm of Mostefaoui, Mourgaya, Parvedy and
   Raynal, "Evaluating the condition-based approach to solve consensus",
   DSN 2003, with the estimate chosen as the more frequent value, as
   Gmeiner's thesis models it (Sec. 5.4, Algorithm 5.3, Listing 22), under
   clean crashes.

   Phase 0: a process sends its value v (V0, V1) to all and waits (P0) for
   n - t phase-0 messages; the value it received strictly more often
   becomes its estimate, which it sends to all in phase 1 (W0, W1, then
   P1).  A process decides b (AC0, AC1) once it has received more than
   (n - 1)/2 phase-1 messages with b.  All N processes are modelled; up to F
   of them crash cleanly (CR), each before or after one of its sends to
   all, counted in nfaulty.  init0 and init1 count the initial values.

   The properties (the thesis's Sec. 5.4; as in Listing 22):
   (V0) validity0: if no process starts with 0, nobody decides 0;
   (V1) validity1: if no process starts with 1, nobody decides 1;
   (A)  agreement: no two processes decide differently;
   (T)  termination: if the input is in the condition, one value
        proposed by more than f processes beyond the other, every process
        that does not crash decides.
   V0, V1 and A are safety properties; T is liveness.

   Where this model departs from Listing 22:
   - The listing's send of estimate 1 is guarded by pc == P1, so it never
     happens and nobody can decide 1; here P0 -> W1 sends it.
   - A process stops receiving phase-0 messages once it has sent its
     estimate (and forgets them, as in the listing), and a crashed process
     receives nothing.  The listing's fairness, some(nrcvd00 < nsnt00),
     counts those processes too, so it fails forever on almost every run
     and (T) would hold vacuously; here it asks that every process still
     waiting for a message type receives all of them.

   Resilience condition n > 2t, t >= f >= 0, t >= 1.  Rows S5-S8 of Table
   5.1 crash one process more than designed for: -D FleTp1 allows
   f <= t + 1.

   Rows S1-S4 (N=3, T=1, F=1), all hold:
   ftmc: check --param N=3,T=1,F=1 --assume fairness
   expect validity0: holds
   expect validity1: holds
   expect agreement: holds
   expect termination: holds

   Rows S5-S8 (N=3, T=1, F=2): two crashes before sending leave the third
   process waiting for n - t = 2 phase-0 messages forever:
   ftmc: check -D FleTp1 --param N=3,T=1,F=2 --assume fairness
   expect validity0: holds
   expect validity1: holds
   expect agreement: holds
   expect termination: violated

   ftmc verify refuses the model (exit 2) at init0++: the initialisation
   counts the proposed values in shared variables, and ftmc's abstraction
   lets processes change shared variables only in their main loop (the
   threshold (N - 1)/2 would be refused next: it divides a parameter).
   README.md says more.
*/

#define V0  0   /* proposes 0 */
#define V1  1   /* proposes 1 */
#define P0  2   /* sent its value, waits for n - t of phase 0 */
#define W0  3   /* sent estimate 0 */
#define W1  4   /* sent estimate 1 */
#define P1  5   /* waits for a majority of one estimate */
#define AC0 6   /* decided 0 */
#define AC1 7   /* decided 1 */
#define CR  8   /* crashed */
#define NI  9   /* not initialised: ByMC and ftmc start after the
                   initialisation; Spin starts before it, where pc must
                   not look like V0, or validity0 would hold vacuously */

symbolic int N;     /* the number of processes */
symbolic int T;     /* the number of crashes tolerated */
symbolic int F;     /* the number of crashes */

assume(T >= 1);
assume(F >= 0);
assume(N > 2 * T);
#ifdef FleTp1
assume(F <= T + 1);
#else
assume(F <= T);
#endif

int nsnt00, nsnt01;  /* phase-0 messages with value 0, 1 */
int nsnt10, nsnt11;  /* phase-1 messages with estimate 0, 1 */
int nfaulty;         /* crashed processes */
int init0, init1;    /* processes that proposed 0, 1 */

atomic prec_init = (init0 + init1 == N);
atomic prec_no0 = all(Proc:pc != V0);
atomic prec_no1 = all(Proc:pc != V1);
atomic ex_acc0 = some(Proc:pc == AC0);
atomic ex_acc1 = some(Proc:pc == AC1);
atomic all_acc = all(Proc:pc == AC0 || Proc:pc == AC1 || Proc:pc == CR);
atomic cond_init = (init0 > init1 + F || init1 > init0 + F);
atomic in_transit00 = some((Proc:pc == V0 || Proc:pc == V1 || Proc:pc == P0) &&
                           Proc:nrcvd00 < nsnt00);
atomic in_transit01 = some((Proc:pc == V0 || Proc:pc == V1 || Proc:pc == P0) &&
                           Proc:nrcvd01 < nsnt01);
atomic in_transit10 = some((Proc:pc == W0 || Proc:pc == W1 || Proc:pc == P1) &&
                           Proc:nrcvd10 < nsnt10);
atomic in_transit11 = some((Proc:pc == W0 || Proc:pc == W1 || Proc:pc == P1) &&
                           Proc:nrcvd11 < nsnt11);

active [N] proctype Proc() {
  byte pc = NI, next_pc = NI;
  int nrcvd00 = 0, next_nrcvd00 = 0, nrcvd01 = 0, next_nrcvd01 = 0;
  int nrcvd10 = 0, next_nrcvd10 = 0, nrcvd11 = 0, next_nrcvd11 = 0;

  if                            /* the proposed value */
  :: pc = V0; init0++;
  :: pc = V1; init1++;
  fi;
end:
  do
  :: atomic {
       /* receive at most one message of each kind, of the current phase */
       if
       :: (pc == V0 || pc == V1 || pc == P0) && nrcvd00 < nsnt00 ->
            next_nrcvd00 = nrcvd00 + 1;
       :: next_nrcvd00 = nrcvd00;
       fi;
       if
       :: (pc == V0 || pc == V1 || pc == P0) && nrcvd01 < nsnt01 ->
            next_nrcvd01 = nrcvd01 + 1;
       :: next_nrcvd01 = nrcvd01;
       fi;
       if
       :: (pc == W0 || pc == W1 || pc == P1) && nrcvd10 < nsnt10 ->
            next_nrcvd10 = nrcvd10 + 1;
       :: next_nrcvd10 = nrcvd10;
       fi;
       if
       :: (pc == W0 || pc == W1 || pc == P1) && nrcvd11 < nsnt11 ->
            next_nrcvd11 = nrcvd11 + 1;
       :: next_nrcvd11 = nrcvd11;
       fi;
       if
       :: pc == V0 || pc == V1 -> next_pc = P0;
       :: pc == P0 && next_nrcvd00 + next_nrcvd01 >= N - T &&
            next_nrcvd00 > next_nrcvd01 -> next_pc = W0;
       :: pc == P0 && next_nrcvd00 + next_nrcvd01 >= N - T &&
            next_nrcvd01 > next_nrcvd00 -> next_pc = W1;
       :: pc == W0 || pc == W1 -> next_pc = P1;
       :: pc == P1 && next_nrcvd10 >= (N - 1) / 2 + 1 -> next_pc = AC0;
       :: pc == P1 && next_nrcvd11 >= (N - 1) / 2 + 1 -> next_pc = AC1;
       :: pc != CR && nfaulty < F -> nfaulty++; next_pc = CR;
       :: else -> next_pc = pc;
       fi;
       /* send to all; a crash happens before or after a send, not amid */
       if
       :: pc == V0 && next_pc == P0 -> nsnt00++;
       :: pc == V1 && next_pc == P0 -> nsnt01++;
       :: pc == P0 && next_pc == W0 ->
            nsnt10++; next_nrcvd00 = 0; next_nrcvd01 = 0;
       :: pc == P0 && next_pc == W1 ->
            nsnt11++; next_nrcvd00 = 0; next_nrcvd01 = 0;
       :: else;
       fi;
       pc = next_pc;
       nrcvd00 = next_nrcvd00;
       nrcvd01 = next_nrcvd01;
       nrcvd10 = next_nrcvd10;
       nrcvd11 = next_nrcvd11;
       next_pc = NI;
       next_nrcvd00 = 0;
       next_nrcvd01 = 0;
       next_nrcvd10 = 0;
       next_nrcvd11 = 0;
     }
  od;
}

/* every message is received by every process that waits for its kind */
ltl fairness { []<>(!in_transit00 && !in_transit01 &&
                    !in_transit10 && !in_transit11) }

ltl validity0 { ([](prec_no0) && <>(prec_init)) -> [](!ex_acc0) }
ltl validity1 { ([](prec_no1) && <>(prec_init)) -> [](!ex_acc1) }
ltl agreement { [](!ex_acc0 || !ex_acc1) }
ltl termination { []((!prec_init || !cond_init) || <>(all_acc)) }
