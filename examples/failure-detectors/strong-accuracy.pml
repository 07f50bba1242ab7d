/*
 * The failure detector that provides strong accuracy (Larrea, Arevalo,
 * Fernandez, DISC 1999; Fig. 3 of Atif, Mousavi, Osaiweran, "Formal
 * verification of unreliable failure detectors in partially synchronous
 * systems", TU/e CS report 11-12, 2011).
 *
 * The weak-completeness algorithm (weak-completeness.pml) plus adaptive
 * timeouts without a leader: whenever p times out on its target, it
 * increments Delta_{p,target_p}, so that eventually it waits long enough
 * for every correct process.
 *
 * Modelling choices (details in fd-state.h and fd-tasks.h):
 * - Discrete time after stabilisation, as in weak-accuracy.pml: Delta
 *   starts at 1 and grows by one up to MAXDELTA, the bound on a round
 *   trip; a timeout without a reply is possible while Delta < MAXDELTA,
 *   on a crashed target, or when the reply is lost for good.
 * - PROP=SA arms the monitor of Fig. 15: a timeout on a correct process
 *   whose Delta has reached MAXDELTA (Delta would exceed the bound) fails
 *   an assertion.
 * - Channels, crash and the other monitors as in weak-completeness.pml.
 *
 * Expected verdicts (the tests run these; docs/case-studies/
 * failure-detectors.md has the whole table). With ORDER=SPLIT, bounded
 * buffers deadlock (the paper: the same deadlock as Fig. 13) or overflow:
 *
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=1
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=2
 * expect: invalid end state
 * ftmc: check -D CHAN=R -D ORDER=SPLIT -D BUF=1
 * expect: violated (assertion)
 * ftmc: check -D CHAN=R -D ORDER=SPLIT -D BUF=2
 * expect: violated (assertion)
 * ftmc: check -D CHAN=R -D ORDER=SPLIT -D BUF=1 -D NPROC=4
 * expect: violated (assertion)
 *
 * FIFO channels remove the deadlock neither in the paper's UPPAAL
 * semantics of a full channel (WAIT=UPPAAL, the default: tasks wait for
 * room holding the mutex) nor in its mCRL2 one; with WAIT=FDR2 (a send
 * waits for room before the mutex, an answer before anything else) there
 * is none at BUF=1 while process 1 may crash (2,113,367 states), but three
 * correct processes deadlock. weak-completeness.pml explains why; all
 * FIFO deadlocks need an early timeout (none with MAXDELTA=1). CHAN=R
 * overflows at every buffer size tried (1 to 3):
 *
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=1
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=2
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=3
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=MCRL2
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=2 -D WAIT=MCRL2
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: holds
 * expect: slow
 * ftmc: check -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2 -D CRASH=NONE
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=1 -D WAIT=FDR2
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=1 -D MAXDELTA=1
 * expect: holds
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=1 -D MAXDELTA=1
 * expect: holds
 * ftmc: check -D CHAN=R -D ORDER=FIFO -D BUF=1
 * expect: violated (assertion)
 * ftmc: check -D CHAN=R -D ORDER=FIFO -D BUF=2
 * expect: violated (assertion)
 * ftmc: check -D CHAN=I -D ORDER=SPLIT -D BUF=1
 * expect: holds
 * expect: slow
 * ftmc: check -D CHAN=I -D ORDER=FIFO -D BUF=1
 * expect: holds
 * expect: slow
 *
 * The accuracy monitor (Fig. 15), checked apart from the deadlocks
 * (DEADLOCK=IGNORE): with reliable channels no Delta ever has to exceed
 * the bound; with FIFO and CHAN=I a dropped message makes a correct
 * process look crashed (see weak-accuracy.pml).
 *
 * ftmc: check -D PROP=SA -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=FIFO -D BUF=1
 * expect: holds
 * expect: slow
 * ftmc: check -D PROP=SA -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: holds
 * ftmc: check -D PROP=SA -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=SPLIT -D BUF=1
 * expect: holds
 * expect: slow
 * ftmc: check -D PROP=SA -D CHAN=I -D ORDER=FIFO -D BUF=1
 * expect: violated (assertion)
 * ftmc: check -D PROP=SA -D CHAN=I -D ORDER=SPLIT -D BUF=1
 * expect: holds
 * expect: slow
 *
 * The paper (Section 5.3) finds strong accuracy satisfied: so does the
 * monitor here with FIFO channels that block (7,680,767 states with
 * WAIT=UPPAAL, 2,113,367 with WAIT=FDR2).
 *
 * LTL (PROP=LTL, fd-tasks.h) in the deadlock-free FIFO setting, under
 * weak fairness and the fairness assumed there: eventually no correct
 * process suspects a correct one, in the runs where process 1 crashes
 * (6,024,102 states); weak completeness holds (12,090,830 states) and
 * suspicion is not permanent:
 *
 * ftmc: check --ltl strong_accuracy --fairness weak -D PROP=LTL -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: holds
 * expect: slow
 * ftmc: check --ltl weak_completeness --fairness weak -D PROP=LTL -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: holds
 * expect: slow
 * ftmc: check --ltl permanent_suspicion --fairness weak -D PROP=LTL -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: violated (acceptance cycle)
 */

#define ADAPTIVE
#include "fd-state.h"

#if PROP != NONE && PROP != WC && PROP != SA && PROP != LTL
#error "strong-accuracy.pml: PROP must be NONE, WC, SA or LTL"
#endif

inline on_timeout(p, t) {
	if
	:: !DEAD(t) ->
#if PROP == SA
		assert(DELTA(p, t) < MAXDELTA); /* Fig. 15: Delta would exceed the bound */
#endif
		GROW(p, t)
	:: else -> skip /* Delta of a crashed target is never read again */
	fi
}

inline on_are_you_alive(p, q) {
	skip
}

inline on_late_reply(p, q) {
	skip
}

inline on_crash() {
	FORGET_DELTAS()
}

#include "fd-tasks.h"
