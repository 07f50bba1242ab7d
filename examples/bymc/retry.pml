/* A broadcast whose processes retry, in ByMC's Parametric Promela (the
   automaton examples/threshold/retry.ta, written as a process): a
   process that has sent its echo and has not seen N - T echoes goes back
   to V1 and sends again, so its local state returns to one it left
   (V1 -> SE -> V1).

   Outside the class of threshold automata: the PIA abstraction keeps the
   cycle, and verify checks the automaton on the counter abstraction with
   refinement.  Merged into one location, as the schema engine would need
   it, the cycle would not decide prec_lonely, which counts the processes
   in V1.

   nsnt counts messages, not senders: one process that starts with V1
   alone makes nsnt reach N - T by retrying, and accepts (lonely).
   Without a process in V1 nobody sends (unforg).  Every process that
   sends keeps sending until N - T messages are out, then accepts, so in
   every fair run the processes leave V1 and SE for good (the fairness
   block states it; the justice of processes adds that a process in V0
   moves once T + 1 messages are out): then every process that starts with
   V1 accepts in the end (corr), as do all once one does (relay).

   For every N and T:
   ftmc: verify all
   expect unforg: holds
   expect sent: holds
   expect lonely: violated
   expect corr: holds
   expect relay: holds

   The smallest instance:
   ftmc: check --param N=4,T=1 --assume fairness
   expect unforg: holds
   expect sent: holds
   expect lonely: violated
   expect corr: holds
   expect relay: holds
*/

#define V0 0   /* has not received the broadcaster's message */
#define V1 1   /* has it, and sends (again) */
#define SE 2   /* has sent, and waits for a quorum */
#define AC 3   /* accepted */

symbolic int N, T;
assume(N > 3 * T);
assume(T >= 1);

int nsnt;           /* messages sent, not senders: a retry counts again */

atomic prec_init = all(Proc@end);
atomic prec_unforg = all(Proc:pc == V0);
atomic prec_corr = all(Proc:pc == V1);
atomic prec_lonely = (card(Proc:pc == V1) == 1);
atomic ex_acc = some(Proc:pc == AC);
atomic all_acc = all(Proc:pc == AC);
atomic ex_sender = some(Proc:pc == V1 || Proc:pc == SE || Proc:pc == AC);
atomic busy = some(Proc:pc == V1 || Proc:pc == SE);

active [N] proctype Proc() {
  byte pc = V0;

  if                            /* the broadcaster's message, or not */
  :: pc = V0;
  :: pc = V1;
  fi;
end:
  do
  :: atomic {
       if
       :: pc == V1 -> pc = SE; nsnt++;
       :: pc == V0 && nsnt >= T + 1 -> pc = SE; nsnt++;
       :: pc == SE && nsnt < N - T -> pc = V1;
       :: pc == SE && nsnt >= N - T -> pc = AC;
       :: else;
       fi
     }
  od;
}

/* the senders stop in the end: they have sent N - T messages, or all is quiet */
ltl fairness { []<>(!busy) }

ltl unforg { []((prec_init && prec_unforg) -> [](!ex_acc)) }
ltl sent { [](nsnt >= 1 -> ex_sender) }
ltl lonely { []((prec_init && prec_lonely) -> [](!ex_acc)) }
ltl corr { []((prec_init && prec_corr) -> <>(ex_acc)) }
ltl relay { [](ex_acc -> <>(all_acc)) }
