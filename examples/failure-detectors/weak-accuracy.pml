/*
 * The failure detector that provides eventual weak accuracy (Larrea,
 * Arevalo, Fernandez, DISC 1999; Fig. 2 of Atif, Mousavi, Osaiweran,
 * "Formal verification of unreliable failure detectors in partially
 * synchronous systems", TU/e CS report 11-12, 2011).
 *
 * The weak-completeness algorithm (weak-completeness.pml) plus adaptive
 * timeouts towards a leader: a pre-agreed initial candidate CAND; when p
 * times out on its target and CAND is in {succ(p), ..., target_p}, p
 * increments Delta_{p,target_p}. Eventually the leader (CAND, or its
 * correct successor if CAND crashed) is suspected by nobody.
 *
 * Modelling choices (details in fd-state.h and fd-tasks.h):
 * - Discrete time after stabilisation (the paper's UPPAAL model also
 *   starts there): Delta_{p,q} starts at 1 and grows by one up to
 *   MAXDELTA, the bound on a round trip. Task1 may time out without a
 *   reply while Delta_{p,target} < MAXDELTA (the reply may be late), when
 *   the target has crashed, or when the reply is lost for good.
 * - PROP=EWA arms the monitor of Fig. 14, as assertions on each timeout on
 *   the leader: it must not happen once Delta has reached MAXDELTA, and it
 *   must increase Delta (else the leader could be suspected forever).
 * - Channels, crash and the other monitors as in weak-completeness.pml.
 *
 * Expected verdicts (the tests run these; docs/case-studies/
 * failure-detectors.md has the whole table). With ORDER=SPLIT, bounded
 * buffers deadlock (Fig. 13) or overflow:
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
 * is none at BUF=1 while process 1 may crash (2,774,426 states), but three
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
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=1 -D NPROC=4
 * expect: invalid end state
 *
 * The accuracy monitor (Fig. 14), checked apart from the deadlocks
 * (DEADLOCK=IGNORE): with reliable FIFO channels the leader is never
 * suspected once its Delta has reached the bound; with CHAN=I a dropped
 * message makes a correct leader look crashed (a lost reply is not late,
 * it never comes), which the paper's assumption of reliable channels
 * excludes; with SPLIT channels a drop always has an older message of the
 * same kind ahead of it, whose reply still comes.
 *
 * ftmc: check -D PROP=EWA -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=FIFO -D BUF=1
 * expect: holds
 * expect: slow
 * ftmc: check -D PROP=EWA -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: holds
 * ftmc: check -D PROP=EWA -D CHAN=I -D ORDER=FIFO -D BUF=1
 * expect: violated (assertion)
 * ftmc: check -D PROP=EWA -D CHAN=I -D ORDER=SPLIT -D BUF=1
 * expect: holds
 * expect: slow
 *
 * The paper (Section 5.2) finds eventual weak accuracy satisfied in its
 * FIFO setting: so does the monitor here with FIFO channels that block
 * (13,856,045 states with WAIT=UPPAAL, 2,774,426 with WAIT=FDR2).
 *
 * LTL (PROP=LTL, fd-tasks.h) in the deadlock-free FIFO setting, under
 * weak fairness and the fairness assumed there: eventually the leader is
 * suspected by no correct process, in the runs where process 1 crashes
 * (6,552,569 states); weak completeness holds as in weak-completeness.pml
 * (15,591,783 states) and suspicion is not permanent:
 *
 * ftmc: check --ltl eventual_weak_accuracy --fairness weak -D PROP=LTL -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
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

#if PROP != NONE && PROP != WC && PROP != EWA && PROP != LTL
#error "weak-accuracy.pml: PROP must be NONE, WC, EWA or LTL"
#endif

/* the eventual leader: CAND, or its successor once CAND has crashed */
#define LEADER (DEAD(CAND) -> (CAND + 1) % NPROC : CAND)
/* initial_cand in {succ(p), ..., target_p} */
#define CAND_AHEAD(p) (DIST(p, CAND) > 0 && DIST(p, CAND) <= ahead[p] + 1)

inline on_timeout(p, t) {
	if
	:: !DEAD(t) ->
#if PROP == EWA
		assert(!(t == LEADER && DELTA(p, t) == MAXDELTA)); /* Fig. 14 */
		assert(!(t == LEADER && !CAND_AHEAD(p)));
#endif
		if
		:: CAND_AHEAD(p) -> GROW(p, t)
		:: else -> skip
		fi
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
