/*
 * fd-state.h: the state and the channel semantics shared by the four
 * failure-detector models (weak-completeness.pml, weak-accuracy.pml,
 * strong-accuracy.pml, strong-completeness.pml). Each model includes this
 * file, defines the inlines that make its algorithm different (what a
 * timeout does, what a received message adds), and then includes
 * fd-tasks.h, which holds Task1, Task2 and the ring's set-up.
 *
 * Macros (set them with -D NAME=VALUE; spin takes the same -D flags):
 *
 *   NPROC     number of processes in the logical ring (default 3)
 *   CHAN      what a send to a full channel does:
 *               B  the sender blocks until there is room (default)
 *               R  it is an error: an assertion fails
 *               I  the message is dropped
 *   ORDER     SPLIT  one channel per message type per ordered pair, so an
 *                    I_AM_ALIVE can overtake an ARE_YOU_ALIVE (the paper's
 *                    model; default)
 *             FIFO   one FIFO channel per ordered pair (the paper's fix)
 *   BUF       slots per channel (default 1)
 *   CRASH     CONSUME  process 1 may crash; afterwards it still consumes
 *                      the messages sent to it but never answers (UPPAAL
 *                      and FDR2 models; default)
 *             HALT     process 1 may crash and then does nothing at all,
 *                      so messages to it stay in the channels (mCRL2 model)
 *             NONE     no process crashes
 *   PROP      which monitor is armed (deadlocks are always checked):
 *             NONE (default), WC (weak completeness: oscillations of the
 *             crashed process's suspicion, Figs. 11-12), EWA (eventual weak
 *             accuracy, Fig. 14), SA (strong accuracy, Fig. 15), SC (strong
 *             completeness: oscillations of the crashed process in G),
 *             SC16 (the paper's Fig. 16 monitor, strong-completeness.pml
 *             only), LTL (no monitor; the ltl blocks at
 *             the end of fd-tasks.h, which a run without --ltl would all
 *             check, are there only with PROP=LTL; LTL_ONLY=n keeps one)
 *   OSC       WC and SC: the oscillation that counts as a violation
 *             (default 1: the first time the crashed process stops being
 *             suspected after it was suspected following its crash)
 *   MAXDELTA  the bound on a round trip after stabilisation, in units of
 *             the timeout Delta, which starts at 1 (default 2)
 *   CAND      weak accuracy: the pre-agreed initial candidate (default 1)
 *   WAIT      CHAN=B: how a task waits for room in a full channel, as in
 *             the paper's three models (they differ):
 *               UPPAAL  Task1 and Task2 wait holding the mutex (the
 *                       paper's account of Figs. 10 and 13; default)
 *               MCRL2   neither holds it: a send is one step with the
 *                       mutex, Task1 waits before taking it, Task2 waits
 *                       with the received message in hand while Task1 goes
 *                       on (appendix A: one sequential process, no mutex)
 *               FDR2    Task1 as MCRL2; Task2, once it has received an
 *                       ARE_YOU_ALIVE, lets nothing else happen in its
 *                       process until the answer is sent (appendix B: a
 *                       receive is followed by the answer in CSP's prefix)
 *   DEADLOCK  CHECK   a state where no process can move is an error
 *                     (default)
 *             IGNORE  every waiting point is a valid end state (as pan -E):
 *                     a search then counts the whole state space instead
 *                     of stopping at the first deadlock
 *
 * Macro values are names, and C's preprocessor compares only numbers in
 * #if, so the names are defined as numbers below: -D CHAN=B makes
 * "#if CHAN == B" read "#if 1 == 1" for both spin's cpp and ftmc. The
 * names B, R, I, SPLIT, FIFO, CONSUME, HALT, NONE, WC, EWA, SA, SC, SC16, LTL,
 * CHECK, IGNORE, UPPAAL, MCRL2 and FDR2 are therefore reserved in these models.
 */

#define B 1
#define R 2
#define I 3
#define SPLIT 1
#define FIFO 2
#define NONE 0
#define CONSUME 1
#define HALT 2
#define WC 1
#define EWA 2
#define SA 3
#define SC 4
#define LTL 5
#define SC16 6
#define CHECK 1
#define IGNORE 2
#define UPPAAL 1
#define MCRL2 2
#define FDR2 3

#ifndef NPROC
#define NPROC 3
#endif
#ifndef CHAN
#define CHAN B
#endif
#ifndef ORDER
#define ORDER SPLIT
#endif
#ifndef BUF
#define BUF 1
#endif
#ifndef CRASH
#define CRASH CONSUME
#endif
#ifndef PROP
#define PROP NONE
#endif
#ifndef OSC
#define OSC 1
#endif
#ifndef MAXDELTA
#define MAXDELTA 2
#endif
#ifndef CAND
#define CAND 1
#endif
#ifndef DEADLOCK
#define DEADLOCK CHECK
#endif
#ifndef WAIT
#define WAIT UPPAAL
#endif

#if CHAN != B && CHAN != R && CHAN != I
#error "CHAN must be B, R or I"
#endif
#if ORDER != SPLIT && ORDER != FIFO
#error "ORDER must be SPLIT or FIFO"
#endif
#if CRASH != CONSUME && CRASH != HALT && CRASH != NONE
#error "CRASH must be CONSUME, HALT or NONE"
#endif
#if PROP != NONE && PROP != WC && PROP != EWA && PROP != SA && PROP != SC && PROP != SC16 && PROP != LTL
#error "PROP must be NONE, WC, EWA, SA, SC, SC16 or LTL"
#endif
#if WAIT != UPPAAL && WAIT != MCRL2 && WAIT != FDR2
#error "WAIT must be UPPAAL, MCRL2 or FDR2"
#endif
#if DEADLOCK != CHECK && DEADLOCK != IGNORE
#error "DEADLOCK must be CHECK or IGNORE"
#endif
#if NPROC < 3 || NPROC > 5
#error "NPROC must be 3, 4 or 5"
#endif
#if BUF < 1
#error "BUF must be at least 1"
#endif

/* Does Task1 (Task2) keep its mutex while it waits for room (CHAN=B)? */
#define T1_HOLDS (CHAN == B && WAIT == UPPAAL)
#define T2_HOLDS (CHAN == B && WAIT != MCRL2)

/* WAITING(l) labels a place where a task may wait: a valid end state
 * only with DEADLOCK=IGNORE. */
#if DEADLOCK == IGNORE
#define WAITING(l) l:
#else
#define WAITING(l)
#endif

#define CRASHER 1 /* the process that may crash: the paper's p1 */
#define PRED 0    /* its correct predecessor in the ring */

mtype = { ARE_YOU_ALIVE, I_AM_ALIVE };

/*
 * Ring arithmetic. DIST(p, q) is how many steps q is ahead of p.
 *
 * The suspect list L_p is not stored: the algorithms only ever add
 * target_p to L_p while moving target_p one step on, and remove the range
 * {q, ..., pred(target_p)} while moving target_p back to q, so
 * L_p = {succ(p), ..., pred(target_p)} always holds. One number per
 * process is the whole state: ahead[p] = DIST(p, target_p) - 1, the number
 * of suspected processes, in 0..NPROC-1 (NPROC-1: p suspects everybody and
 * stops probing). Variables start at 0, so values are stored from 0.
 */
#define DIST(p, q) (((q) + NPROC - (p)) % NPROC)
#define TARGET(p) (((p) + 1 + ahead[p]) % NPROC)
#define SUSPECTS(p, q) (DIST(p, q) > 0 && DIST(p, q) <= ahead[p])
#define BIT(q) (1 << (q))

/*
 * Channels are numbered per receiver: the k-th incoming channel of
 * process r (k = 0..NPROC-2) comes from SENDER(r, k).
 */
#define IN(r, k) ((r) * (NPROC - 1) + (k))
#define SENDER(r, k) (((r) + 1 + (k)) % NPROC)
#define PAIR(f, t) IN(t, DIST(t, f) - 1)

#if ORDER == SPLIT
chan aya[NPROC * (NPROC - 1)] = [BUF] of { mtype };
chan iaa[NPROC * (NPROC - 1)] = [BUF] of { mtype };
#define CH_AYA(f, t) aya[PAIR(f, t)]
#define CH_IAA(f, t) iaa[PAIR(f, t)]
#else
chan link[NPROC * (NPROC - 1)] = [BUF] of { mtype };
#define CH_AYA(f, t) link[PAIR(f, t)]
#define CH_IAA(f, t) link[PAIR(f, t)]
#endif

/*
 * SEND(ch, m, t, escape) sends m to process t over ch with the overflow
 * policy CHAN. With B a sender that finds the channel full says so and
 * waits inside its atomic sequence, keeping its mutex, until there is room
 * (that is the paper's deadlock) or escape (a crash) is executable. With
 * WAIT=MCRL2 or FDR2 a task that must not keep its mutex waits for room
 * before it takes the mutex (fd-tasks.h), so its SEND finds room.
 */
#if CHAN == B
#define SEND(ch, m, t, escape) \
	if \
	:: nfull(ch) -> ch!m \
	:: full(ch) -> printf("MSC: blocked, channel to %d full\n", t); \
		WAITING(end_full) \
		if \
		:: nfull(ch) -> ch!m \
		:: escape \
		fi \
	fi
#elif CHAN == R
#define SEND(ch, m, t, escape) assert(nfull(ch)); ch!m
#else
#define SEND(ch, m, t, escape) \
	if \
	:: nfull(ch) -> ch!m \
	:: full(ch) -> printf("MSC: drop %e to node %d\n", m, t) \
	fi
#endif

byte ahead[NPROC]; /* DIST(p, target_p) - 1; see above */
bit mutex[NPROC];      /* mutex_p, shared by Task1 and Task2 of p */

/*
 * rnd[p] is Task1's round: 0 not waiting, 1 waiting for a reply, 2 a reply
 * came (received_p = true). The algorithm's received_p is read only while
 * Task1 waits, and set to false whenever a round starts, so outside a
 * round it is not kept: writes to it then are dropped.
 */
byte rnd[NPROC];

/*
 * held[r], from[r]: the message Task2 of r has received and not yet
 * processed (0 when none). Nonzero only while Task2 waits for the mutex or
 * for room to answer; they are globals so that a timeout can see that a
 * reply is still on its way.
 */
mtype held[NPROC];
byte from[NPROC];

bit dead; /* CRASHER has crashed */
#if CRASH == NONE
#define DEAD(p) 0
#define CAN_CRASH(p) 0
#else
#define DEAD(p) ((p) == CRASHER && dead)
#define CAN_CRASH(p) ((p) == CRASHER)
#endif
#if CRASH == HALT
#define LISTENING(r) (!DEAD(r))
#else
#define LISTENING(r) 1
#endif

/*
 * NOREPLY(p, t): nothing is under way between p and t (no ARE_YOU_ALIVE
 * of p for t and no I_AM_ALIVE of t for p in a channel or in a Task2's
 * hand). After stabilisation a round trip takes at most MAXDELTA, so a
 * timeout with Delta = MAXDELTA can only happen when the reply is lost.
 * With FIFO channels the test is that both channels of the pair are empty:
 * a little later than necessary, which a timeout may always be.
 */
#define NOREPLY(p, t) (empty(CH_AYA(p, t)) && empty(CH_IAA(t, p)) && \
	!(held[t] == ARE_YOU_ALIVE && from[t] == p) && !(held[p] == I_AM_ALIVE && from[p] == t))

#ifdef ADAPTIVE
/*
 * Delta_{p,q} for the algorithms that adapt their timeouts (Figs. 2-4), in
 * 1..MAXDELTA (it starts at 1, the default timeout), stored as Delta - 1. Discrete time after
 * stabilisation: a round trip between correct processes takes at most
 * MAXDELTA, so a timeout without a reply is possible while
 * Delta_{p,target} < MAXDELTA (the reply may come late), when the target
 * has crashed, or when the reply is lost (NOREPLY); a larger Delta behaves
 * as MAXDELTA, so Delta stops there.
 */
byte delta[NPROC * (NPROC - 1)];
#define DSLOT(p, q) delta[IN(p, DIST(p, q) - 1)]
#define DELTA(p, q) (DSLOT(p, q) + 1)
#define TIMEOUT_OK(p, t) (DEAD(t) || DELTA(p, t) < MAXDELTA || NOREPLY(p, t))
#define GROW(p, t) DSLOT(p, t) = DSLOT(p, t) + (DELTA(p, t) < MAXDELTA)

/*
 * After the crash, Delta_{CRASHER,q} and Delta_{p,CRASHER} are never read
 * again (a timeout on a crashed target needs no Delta), so the crash
 * resets them: states that differ only there are the same state.
 */
#if NPROC == 3
#define FORGET_DELTAS() delta[IN(CRASHER, 0)] = 0; delta[IN(CRASHER, 1)] = 0; \
	DSLOT(0, CRASHER) = 0; DSLOT(2, CRASHER) = 0
#elif NPROC == 4
#define FORGET_DELTAS() delta[IN(CRASHER, 0)] = 0; delta[IN(CRASHER, 1)] = 0; delta[IN(CRASHER, 2)] = 0; \
	DSLOT(0, CRASHER) = 0; DSLOT(2, CRASHER) = 0; DSLOT(3, CRASHER) = 0
#else
#define FORGET_DELTAS() delta[IN(CRASHER, 0)] = 0; delta[IN(CRASHER, 1)] = 0; delta[IN(CRASHER, 2)] = 0; \
	delta[IN(CRASHER, 3)] = 0; DSLOT(0, CRASHER) = 0; DSLOT(2, CRASHER) = 0; DSLOT(3, CRASHER) = 0; \
	DSLOT(4, CRASHER) = 0
#endif
#endif

/* received_p <- true (kept only while Task1 waits) */
inline received(p) {
	rnd[p] = (rnd[p] == 1 -> 2 : rnd[p])
}

#if PROP == WC || PROP == SC
/*
 * The oscillation monitor (Fig. 11): sus is set when the watched suspicion
 * of CRASHER starts after its crash; osc counts how often it ended again.
 */
bit sus;
byte osc;
inline oscillation_start() {
	sus = sus || dead
}
inline oscillation_end() {
	if
	:: sus -> osc++; sus = 0; assert(osc < OSC)
	:: else
	fi
}
#endif
