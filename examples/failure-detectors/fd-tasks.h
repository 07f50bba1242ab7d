/*
 * fd-tasks.h: Task1 and Task2 of every process of the ring (paper Figs.
 * 1-4, UPPAAL automata Figs. 6, 7 and 9), included by the four models
 * after fd-state.h and after their own inlines:
 *
 *   TIMEOUT_OK(p, t)        may Task1 of p time out on t without a reply?
 *   on_timeout(p, t)        what the algorithm does before suspecting t
 *   on_are_you_alive(p, q)  after Task2 of p answered q
 *   on_late_reply(p, q)     I_AM_ALIVE from a suspected q, before p stops
 *                           suspecting q
 *   on_crash()              resets what a crash makes dead
 *
 * Process p runs Task1(p) and Task2(p); the parameter is called node
 * because ftmc groups the lifelines of a message sequence chart by a
 * proctype parameter of that name (both tasks of a process side by side).
 *
 * Steps. A task's critical section (take the mutex, act, give the mutex
 * back) is one atomic step unless it must wait inside: for room in a
 * channel (CHAN=B, WAIT=UPPAAL; Task2 also with WAIT=FDR2), holding the
 * mutex, or, for Task2, for the mutex with a message already received. So
 * the states where a task holds the mutex are exactly those where it waits
 * there, and the states where Task2 holds a message are those where the
 * mutex was taken (or, with WAIT=MCRL2, where the answer's channel is
 * full). A receive that finds the mutex free is merged with its
 * processing: moving it earlier or later commutes with everything the
 * other task does under the mutex.
 *
 * printf("MSC: ...") marks the local events of message sequence charts
 * (suspect, stop suspecting, crash, dropped messages, waiting for the
 * mutex or for room in a channel), as in Spin's own charts; it changes no
 * state.
 */

#if PROP == WC
#define WATCH_SUSPECT(p, t) if :: p == PRED && t == CRASHER -> oscillation_start() :: else -> skip fi
#define WATCH_UNSUSPECT(p, q) if :: p == PRED && SUSPECTS(p, CRASHER) && DIST(p, q) <= DIST(p, CRASHER) -> oscillation_end() :: else -> skip fi
#else
#define WATCH_SUSPECT(p, t) skip
#define WATCH_UNSUSPECT(p, q) skip
#endif

/* Task1 of p timed out without a reply from its target t. */
inline suspect(p, t) {
	printf("MSC: timeout, suspect %d\n", t);
	WATCH_SUSPECT(p, t);
	on_timeout(p, t);
	ahead[p]++ /* L_p gets t, target_p becomes succ(t); t is read before */
}

/* L_p <- L_p - {q, ..., pred(target_p)}; target_p <- q; received <- true */
inline stop_suspecting(p, q) {
	if
	:: DIST(p, q) == ahead[p] -> printf("MSC: stop suspecting %d\n", q)
	:: else -> printf("MSC: stop suspecting %d..%d\n", q, (p + ahead[p]) % NPROC)
	fi;
	WATCH_UNSUSPECT(p, q);
	ahead[p] = DIST(p, q) - 1;
	received(p)
}

inline crash(p) {
	printf("MSC: crash\n");
	dead = 1;
	ahead[p] = 0;
	rnd[p] = 0;
	mutex[p] = 0;
	on_crash()
}

/*
 * T1_ROOM(p), T2_ROOM(p): with WAIT=MCRL2 or FDR2 a task that would have
 * to wait for room in a full channel waits before it takes the mutex.
 */
#if CHAN == B && !T1_HOLDS
#define T1_ROOM(p) nfull(CH_AYA(p, TARGET(p)))
#else
#define T1_ROOM(p) 1
#endif
#if CHAN == B && !T2_HOLDS
#define T2_ROOM(p) (held[p] != ARE_YOU_ALIVE || nfull(CH_IAA(p, from[p])))
#define T2_FULL(p) (held[p] == ARE_YOU_ALIVE && len(CH_IAA(p, from[p])) == BUF) /* full() would not mix with else */
#else
#define T2_ROOM(p) 1
#define T2_FULL(p) 0
#endif

proctype Task1(byte node) {
	WAITING(end_idle)
	do
	:: atomic {
		mutex[node] == 0 && ahead[node] < NPROC - 1 && T1_ROOM(node) -> /* wait(mutex); target_p != p */
		mutex[node] = 1;
		SEND(CH_AYA(node, TARGET(node)), ARE_YOU_ALIVE, TARGET(node), CAN_CRASH(node) -> crash(node); break);
		rnd[node] = 1; /* received <- false */
		mutex[node] = 0
	   };
	   /* delay t_out; wait(mutex) */
	   WAITING(end_delay)
	   if
	   :: atomic { mutex[node] == 0 && rnd[node] == 2 -> rnd[node] = 0 }
	   :: atomic { mutex[node] == 0 && rnd[node] == 1 && TIMEOUT_OK(node, TARGET(node)) ->
		suspect(node, TARGET(node));
		rnd[node] = 0 }
	   :: atomic { CAN_CRASH(node) -> crash(node); break }
	   fi
	:: atomic { CAN_CRASH(node) -> crash(node); break }
	od
}

#if ORDER == SPLIT
#define RECV(r, k) \
	:: LISTENING(r) && nempty(aya[IN(r, k)]) -> aya[IN(r, k)]?held[r]; from[r] = SENDER(r, k) \
	:: LISTENING(r) && nempty(iaa[IN(r, k)]) -> iaa[IN(r, k)]?held[r]; from[r] = SENDER(r, k)
#else
#define RECV(r, k) \
	:: LISTENING(r) && nempty(link[IN(r, k)]) -> link[IN(r, k)]?held[r]; from[r] = SENDER(r, k)
#endif

proctype Task2(byte node) {
end:
	do
	:: atomic {
		if /* receive message m from a process q */
		RECV(node, 0)
		RECV(node, 1)
#if NPROC > 3
		RECV(node, 2)
#endif
#if NPROC > 4
		RECV(node, 3)
#endif
		fi;
		if
		:: !DEAD(node) && mutex[node] == 1 -> printf("MSC: waits for the mutex\n")
		:: !DEAD(node) && mutex[node] == 0 && T2_FULL(node) -> printf("MSC: blocked, channel to %d full\n", from[node])
		:: else -> skip
		fi;
		WAITING(end_mutex)
		if
		:: DEAD(node) -> skip /* crashed: consume, never answer */
		:: !DEAD(node) && mutex[node] == 0 && T2_ROOM(node) ->
			mutex[node] = 1;
			if
			:: held[node] == ARE_YOU_ALIVE ->
				SEND(CH_IAA(node, from[node]), I_AM_ALIVE, from[node], DEAD(node) -> skip);
				if
				:: DEAD(node) -> skip /* crashed while waiting for room */
				:: else ->
					if
					:: SUSPECTS(node, from[node]) -> stop_suspecting(node, from[node])
					:: else -> skip
					fi;
					on_are_you_alive(node, from[node])
				fi
			:: else -> /* I_AM_ALIVE */
				if
				:: from[node] == TARGET(node) -> received(node)
				:: SUSPECTS(node, from[node]) ->
					on_late_reply(node, from[node]);
					stop_suspecting(node, from[node])
				:: else -> skip /* neither the target nor suspected: discard */
				fi
			fi;
			mutex[node] = 0
		fi;
		held[node] = 0;
		from[node] = 0
	   }
	od
}

init {
	byte p;
	atomic {
		do
		:: p < NPROC -> run Task1(p); run Task2(p); p++
		:: else -> break
		od;
		p = 0
	}
}

#if PROP == LTL
/*
 * The properties in LTL (Larrea et al.; the paper's Section 4), with
 * PROP=LTL, for NPROC=3 and BUF=1. A process is correct in a run when it
 * never crashes; as a crash is for good, "eventually always (q alive and
 * ...)" says that q is correct. S(p, q): p is alive and suspects q.
 *
 * Fairness. Weak fairness (--fairness weak, Spin's -f) makes a task move
 * when it could move in every state from some point on. Two things the
 * algorithm relies on are not of that kind, and weak fairness alone lets
 * weak completeness fail: a crashed process that keeps taking 2's probes
 * may never take 0's, leaving 0 blocked on its full link to it; and a
 * Task1 whose Task2 takes and gives back the mutex again and again may
 * never get it (the semaphore of the paper's wait(mutex) is fair). The
 * liveness formulas therefore assume, besides weak fairness, what they
 * need of these for the processes concerned:
 *   LINK(p, q)  the link from p to q is empty again and again: with
 *               BUF=1, every message on it is received (taking it out
 *               empties the channel);
 *   ROUNDS(p)   every probing round of p's Task1 ends, and a new one
 *               starts unless p suspects everybody (a fair mutex).
 * Runs where a task waits for good (deadlocks, WAIT=UPPAAL or MCRL2) fail
 * the assumption: the safety search finds those. One formula with all of
 * them for every process is too large for the translators (4096 terms).
 */
#if NPROC != 3 || BUF != 1
#error "the ltl blocks are written for NPROC=3 and BUF=1"
#endif
/* LTL_ONLY=n keeps only the block numbered n below (weak_completeness 1,
 * permanent_suspicion 2, strong_completeness 3, eventual_weak_accuracy 4,
 * strong_accuracy 5, weak_completeness_wf 6): spin -a translates every
 * block of a model, and takes minutes over each larger one. */
#ifndef LTL_ONLY
#define LTL_ONLY 0
#endif
#define S(p, q) (!DEAD(p) && SUSPECTS(p, q))
#define ANY_SUSPECTS(q) (S(0, q) || S(1, q) || S(2, q))
#define CORRECT_SUSPECTED (S(0, 1) && !DEAD(1) || S(0, 2) || S(1, 0) || S(1, 2) || S(2, 0) || S(2, 1) && !DEAD(1))
#ifndef ALL_SUSPECT
#define ALL_SUSPECT(q) ((SUSPECTS(0, q) || (q) == 0) && (SUSPECTS(2, q) || (q) == 2))
#endif
#if ORDER == FIFO
#define LINK(p, q) []<> (len(link[PAIR(p, q)]) == 0)
#else
#define LINK(p, q) []<> (len(aya[PAIR(p, q)]) == 0) && []<> (len(iaa[PAIR(p, q)]) == 0)
#endif
#define ROUNDS(p) []<> (rnd[p] != 1) && []<> (rnd[p] == 1 || ahead[p] == NPROC - 1)
#define FAIR_PRED (LINK(PRED, CRASHER) && ROUNDS(PRED))
#define FAIR_CRASH (LINK(0, 1) && LINK(2, 1) && ROUNDS(0) && ROUNDS(2))
#define FAIR_CORRECT (<> dead && LINK(0, 2) && LINK(2, 0) && ROUNDS(0) && ROUNDS(2))
/* the leader is suspected (no ?: here: -> is LTL's implication) */
#define LEADER_SUSPECTED (DEAD(CAND) && ANY_SUSPECTS((CAND + 1) % NPROC) || !DEAD(CAND) && ANY_SUSPECTS(CAND))

/* weak completeness: the crashed process is eventually suspected for
 * good by its correct predecessor */
#if LTL_ONLY == 0 || LTL_ONLY == 1
ltl weak_completeness { FAIR_PRED -> <>[] (dead -> SUSPECTS(PRED, CRASHER)) }
#endif

/* the same under weak fairness alone: it fails (see above) */
#if LTL_ONLY == 0 || LTL_ONLY == 6
ltl weak_completeness_wf { <>[] (dead -> SUSPECTS(PRED, CRASHER)) }
#endif

/* once the predecessor suspects the crashed process, it never stops (the
 * proof of Theorem 1 of Larrea et al.; Fig. 12 contradicts it) */
#if LTL_ONLY == 0 || LTL_ONLY == 2
ltl permanent_suspicion { [] ((dead && SUSPECTS(PRED, CRASHER)) -> [] SUSPECTS(PRED, CRASHER)) }
#endif

/* strong completeness: eventually every correct process suspects the
 * crashed process for good (strong-completeness.pml: it is in G) */
#if LTL_ONLY == 0 || LTL_ONLY == 3
ltl strong_completeness { FAIR_CRASH -> <>[] (dead -> ALL_SUSPECT(CRASHER)) }
#endif

/* eventual weak accuracy, for the process the algorithm makes the leader
 * (CAND, or its successor once CAND has crashed): eventually no correct
 * process suspects it. Runs where process 1 crashes: with three correct
 * processes the fairness to assume is too large a formula (above). */
#if LTL_ONLY == 0 || LTL_ONLY == 4
ltl eventual_weak_accuracy { FAIR_CORRECT -> <>[] !LEADER_SUSPECTED }
#endif

/* (eventual) strong accuracy: eventually no correct process is suspected
 * by a correct process; runs where process 1 crashes, as above */
#if LTL_ONLY == 0 || LTL_ONLY == 5
ltl strong_accuracy { FAIR_CORRECT -> <>[] !CORRECT_SUSPECTED }
#endif
#endif
