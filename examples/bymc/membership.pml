/* Processes that join a group and may leave it again, and decide once a
   quorum of T + 1 members is present, in ByMC's Parametric Promela (the
   automaton examples/threshold/membership.ta, written as a process).

   Outside the class of threshold automata twice over: the shared
   variable alive decreases when a member leaves (alive--), and a process
   returns to a state it left (OUT -> IN -> OUT).  The PIA abstraction
   keeps both: the automaton it extracts has the cycle and the decrement,
   and verify checks it on the counter abstraction with refinement (the
   report's engine says so).  The schema engine would need the cycle
   merged into one location, over which some_member is not decided.

   counted holds: alive is the number of processes in IN and DONE, which
   the refinement's state equation knows.  quorum fails: a decision does
   not keep its quorum (two join, one decides, the other leaves).
   Nothing forces a process to decide: it may join and leave for ever,
   so progress fails under the justice of processes too.

   For every N and T:
   ftmc: verify all
   expect counted: holds
   expect quorum: violated
   expect never_done: violated
   expect progress: violated

   The same with the engine named:
   ftmc: verify --engine cegar all
   expect counted: holds
   expect quorum: violated
   expect never_done: violated
   expect progress: violated

   The smallest instance:
   ftmc: check --param N=3,T=1
   expect counted: holds
   expect quorum: violated
   expect never_done: violated
   expect progress: violated
*/

#define OUT 0   /* not a member */
#define IN 1    /* a member */
#define DONE 2  /* decided, with a quorum present */

symbolic int N, T;
assume(N > 2 * T);
assume(T >= 1);

int alive;          /* the members present: IN and DONE */

atomic some_member = some(Proc:pc == IN || Proc:pc == DONE);
atomic some_done = some(Proc:pc == DONE);

active [N] proctype Proc() {
  byte pc = OUT;
end:
  do
  :: atomic {
       if
       :: pc == OUT -> pc = IN; alive++;
       :: pc == IN && alive >= 1 -> pc = OUT; alive--;
       :: pc == IN && alive >= T + 1 -> pc = DONE;
       :: else;
       fi
     }
  od;
}

ltl counted { [](alive >= 1 -> some_member) }
ltl quorum { [](some_done -> alive >= T + 1) }
ltl never_done { [](!some_done) }
ltl progress { <>(some_done) }
