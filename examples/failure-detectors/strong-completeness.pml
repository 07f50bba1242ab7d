/*
 * The failure detector that provides strong completeness (Larrea,
 * Arevalo, Fernandez, DISC 1999; Fig. 4 of Atif, Mousavi, Osaiweran,
 * "Formal verification of unreliable failure detectors in partially
 * synchronous systems", TU/e CS report 11-12, 2011).
 *
 * The strong-accuracy algorithm (strong-accuracy.pml) plus a list G of
 * suspected processes that every process learns: a timeout adds the
 * target to G; an ARE_YOU_ALIVE from q makes p set G <- G + L_p - {p, q};
 * an I_AM_ALIVE from a suspected q removes q from G.
 *
 * Modelling choices (details in fd-state.h and fd-tasks.h):
 * - G is one global set, as in the paper's UPPAAL model (Section 3.4),
 *   not a list per process piggybacked on the messages as in Fig. 4.
 * - Discrete time after stabilisation as in strong-accuracy.pml.
 * - PROP=SC arms the monitor: after process 1 has crashed and entered G,
 *   leaving G again is an oscillation, and the OSC-th one fails an
 *   assertion (the paper's Fig. 16 watches G; the oscillation count is the
 *   same device as Fig. 11's).
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
 * is none at BUF=1 while process 1 may crash (4,234,858 states), but three
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
 * The completeness monitor: after process 1 has crashed and entered G,
 * late messages from it take it out of G again (Fig. 12's oscillation, in
 * G); their number is bounded, so G settles: at most 5 oscillations with
 * WAIT=UPPAAL (DEADLOCK=IGNORE), 4 with WAIT=FDR2, 2 with CHAN=I. That G
 * settles with process 1 in it is the LTL formula's business (below):
 * the paper's Fig. 16 monitor (PROP=SC16: an error when 1 has crashed
 * and is not in G while Delta_{0,2} and Delta_{2,0} have both reached
 * MAXDELTA) fails as soon as the Deltas have grown and 1 is not yet in G,
 * which happens when 1 crashes late: 2 suspects 0 too early (Delta_{2,0}
 * grows), 0 suspects 1 and probes it, 1 answers the probe, which takes 1
 * out of G, and crashes; 0 then suspects 2 too early (Delta_{0,2} grows).
 * G gets 1 back only at 0's next timeout on it, so the monitor's state is
 * a moment of an eventual property, not a violation of it. The paper
 * (Section 5.3) finds strong completeness satisfied; here that is the
 * oscillation bound above and the LTL formula below.
 *
 * ftmc: check -D PROP=SC16 -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: violated (assertion)
 *
 * ftmc: check -D PROP=SC -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=FIFO -D BUF=1
 * expect: violated (assertion)
 * ftmc: check -D PROP=SC -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=FIFO -D BUF=1 -D OSC=5
 * expect: violated (assertion)
 * expect: slow
 * ftmc: check -D PROP=SC -D DEADLOCK=IGNORE -D CHAN=B -D ORDER=FIFO -D BUF=1 -D OSC=6
 * expect: holds
 * expect: slow
 * ftmc: check -D PROP=SC -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2 -D OSC=4
 * expect: violated (assertion)
 * expect: slow
 * ftmc: check -D PROP=SC -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2 -D OSC=5
 * expect: holds
 * expect: slow
 * ftmc: check -D PROP=SC -D CHAN=I -D ORDER=FIFO -D BUF=1 -D OSC=3
 * expect: holds
 * expect: slow
 * ftmc: check -D PROP=SA -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
 * expect: holds
 * expect: slow
 *
 * LTL (PROP=LTL, fd-tasks.h) in the deadlock-free FIFO setting, under
 * weak fairness and the fairness assumed there (both correct processes'
 * mutexes fair, both links to the crashed process emptied): eventually
 * process 1 is in G for good (43,071,962 states, 5 minutes, 5.8 GB). With
 * fairness for process 0 alone it fails: G loses 1 when process 2 answers
 * one of 1's old probes, and only 2's probes of 0 (which add L_0 to G)
 * put it back. Weak completeness holds too (26,610,372 states).
 *
 * ftmc: check --ltl strong_completeness --fairness weak -D PROP=LTL -D CHAN=B -D ORDER=FIFO -D BUF=1 -D WAIT=FDR2
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

#if PROP != NONE && PROP != WC && PROP != SA && PROP != SC && PROP != SC16 && PROP != LTL
#error "strong-completeness.pml: PROP must be NONE, WC, SA, SC, SC16 or LTL"
#endif

byte G; /* the suspected processes, one bit each */

/* L_p as a set of bits: {succ(p), ..., pred(target_p)} */
#define ROTATE(x, s) ((((x) << (s)) | ((x) >> (NPROC - (s)))) & ((1 << NPROC) - 1))
#define LSET(p) ROTATE((1 << ahead[p]) - 1, ((p) + 1) % NPROC)

/* G <- v, watching process CRASHER enter and leave G for PROP=SC */
#if PROP == SC
#define SETG(v) \
	if \
	:: ((v) & BIT(CRASHER)) && !(G & BIT(CRASHER)) -> oscillation_start() \
	:: !((v) & BIT(CRASHER)) && (G & BIT(CRASHER)) -> oscillation_end() \
	:: else -> skip \
	fi; \
	G = (v)
#else
#define SETG(v) G = (v)
#endif

/* strong completeness in LTL (fd-tasks.h): G stands for every G_p */
#define ALL_SUSPECT(q) ((G & BIT(q)) != 0)

inline on_timeout(p, t) {
	if
	:: !DEAD(t) ->
#if PROP == SA
		assert(DELTA(p, t) < MAXDELTA); /* Fig. 15: Delta would exceed the bound */
#endif
		GROW(p, t)
	:: else -> skip /* Delta of a crashed target is never read again */
	fi;
	SETG(G | BIT(t))
}

inline on_are_you_alive(p, q) {
	SETG((G | LSET(p)) & ~(BIT(p) | BIT(q)))
}

inline on_late_reply(p, q) {
	SETG(G & ~BIT(q))
}

inline on_crash() {
	FORGET_DELTAS()
}

#include "fd-tasks.h"

#if PROP == SC16
/*
 * The paper's Fig. 16 monitor: an error when the crashed process is not in
 * G while its correct neighbours' timeouts for each other have both grown
 * to MAXDELTA. A monitor process that waits for that state; its waiting
 * point is a valid end state.
 */
active proctype fig16() {
end:	atomic {
		DEAD(CRASHER) && !(G & BIT(CRASHER)) &&
		DELTA(PRED, (CRASHER + 1) % NPROC) == MAXDELTA &&
		DELTA((CRASHER + 1) % NPROC, PRED) == MAXDELTA ->
		assert(false)
	}
}
#endif
