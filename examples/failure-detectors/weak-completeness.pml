/*
 * The failure detector that provides weak completeness (Larrea, Arevalo,
 * Fernandez, DISC 1999; Fig. 1 of Atif, Mousavi, Osaiweran, "Formal
 * verification of unreliable failure detectors in partially synchronous
 * systems", TU/e CS report 11-12, 2011).
 *
 * NPROC processes form a logical ring; each process p probes its target
 * (initially succ(p)) with ARE_YOU_ALIVE and expects I_AM_ALIVE. Task1
 * sends the probe and, after a timeout, suspects the target and moves on to
 * its successor; Task2 answers probes and stops suspecting a process it
 * hears from. The two tasks share a mutex. Process 1 may crash.
 *
 * Modelling choices (details in fd-state.h and fd-tasks.h):
 * - Time plays no part in this algorithm beyond telling a reply in time
 *   from a late one, so, as in the paper's UPPAAL model, a timeout is a
 *   non-deterministic choice: Task1 waiting for a reply may time out at
 *   any moment before the reply has been processed.
 * - The channel macros CHAN (B, R, I), ORDER (SPLIT, FIFO), BUF, the crash
 *   macro CRASH (CONSUME, HALT, NONE) and the monitor macro PROP are the
 *   same in all four models; PROP=WC arms the oscillation monitor of
 *   Fig. 11 (OSC sets which oscillation fails).
 * - L_p is kept as the distance to target_p; held messages and the
 *   received flag are kept only while they matter; a crash resets the
 *   crashed process's variables, which nobody reads again.
 *
 * Expected verdicts (the tests run these; docs/case-studies/
 * failure-detectors.md has the whole table). With ORDER=SPLIT, bounded
 * buffers deadlock or overflow, as the paper reports for all four
 * algorithms (--dfs finds them with few states; the default breadth-first
 * search finds the shortest, Fig. 13's story):
 *
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=1
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=2
 * expect: invalid end state
 * ftmc: check -D CHAN=R -D ORDER=SPLIT -D BUF=1
 * expect: violated (assertion)
 * ftmc: check -D CHAN=R -D ORDER=SPLIT -D BUF=2
 * expect: violated (assertion)
 * ftmc: check --dfs -D CHAN=B -D ORDER=SPLIT -D BUF=1 -D NPROC=4
 * expect: invalid end state
 * ftmc: check -D CHAN=R -D ORDER=SPLIT -D BUF=1 -D NPROC=4
 * expect: violated (assertion)
 *
 * FIFO channels (the paper's fix) do not remove the deadlock in this
 * model: two correct processes that probe each other can each hold their
 * mutex while waiting for room in the one channel to the other, whose
 * Task2 waits for its mutex holding a message.
 *
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=1
 * expect: invalid end state
 * ftmc: check --dfs -D CHAN=B -D ORDER=FIFO -D BUF=2
 * expect: invalid end state
 * ftmc: check -D CHAN=R -D ORDER=FIFO -D BUF=1
 * expect: violated (assertion)
 *
 * With CHAN=I (a full channel drops the message) there is no deadlock;
 * the paper needed 168-711 million states for the SPLIT run, this model
 * has 712,396:
 *
 * ftmc: check -D CHAN=I -D ORDER=SPLIT -D BUF=1
 * expect: holds
 * expect: slow
 * ftmc: check -D CHAN=I -D ORDER=FIFO -D BUF=1
 * expect: holds
 * expect: slow
 *
 * The oscillations of Fig. 12: after process 1 has crashed and process 0
 * suspects it, a late message makes process 0 stop suspecting it again.
 * As the paper reports, the monitor finds one and two oscillations, and
 * no third; with FIFO channels there is only one.
 *
 * ftmc: check -D CHAN=I -D ORDER=SPLIT -D BUF=1 -D PROP=WC
 * expect: violated (assertion)
 * ftmc: check -D CHAN=I -D ORDER=SPLIT -D BUF=1 -D PROP=WC -D OSC=2
 * expect: violated (assertion)
 * ftmc: check -D CHAN=I -D ORDER=SPLIT -D BUF=1 -D PROP=WC -D OSC=3
 * expect: holds
 * expect: slow
 * ftmc: check -D CHAN=I -D ORDER=FIFO -D BUF=1 -D PROP=WC -D OSC=2
 * expect: holds
 * expect: slow
 */

#include "fd-state.h"

#if PROP != NONE && PROP != WC
#error "weak-completeness.pml: PROP must be NONE or WC"
#endif

#define TIMEOUT_OK(p, t) 1

inline on_timeout(p, t) {
	skip
}

inline on_are_you_alive(p, q) {
	skip
}

inline on_late_reply(p, q) {
	skip
}

inline on_crash() {
	skip
}

#include "fd-tasks.h"
