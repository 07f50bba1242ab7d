/*
 * Dining philosophers: N philosophers sit at a round table with one fork
 * between each pair of neighbours. To eat, a philosopher picks up the fork
 * on the left, then the fork on the right; afterwards both go back.
 *
 * A fork is a channel with room for one token: taking the fork is
 * receiving the token, laying it down is sending it back. A receive on an
 * empty channel blocks, so a philosopher waits for a fork in use.
 *
 * If every philosopher picks up the left fork at the same time, each
 * waits forever for the right one: a deadlock. ftmc reports it as an
 * invalid end state (the processes are stuck, but not at a place marked
 * as a valid end) and shows the interleaving that leads there:
 *
 *   ftmc check examples/promela/philosophers.pml
 *   ftmc check examples/promela/philosophers.pml -D N=5
 *
 * The usual fix is to break the symmetry: compile with -D LEFTY, and the
 * last philosopher picks up the right fork first. Then there is no
 * deadlock.
 *
 * ftmc: check
 * expect: invalid end state
 * ftmc: check -D N=4
 * expect: invalid end state
 * ftmc: check -D LEFTY
 * expect: holds
 */

#ifndef N
#define N 3	/* philosophers, and forks */
#endif

chan fork[N] = [1] of { bit };	/* fork[i] lies left of philosopher i */
byte eating;	/* philosophers eating right now */

active [N] proctype philosopher()
{
	byte left = _pid;
	byte right = (_pid + 1) % N;
	byte first = left, second = right;

#ifdef LEFTY
	if
	:: _pid == N - 1 -> first = right; second = left
	:: else -> skip
	fi;
#endif
	fork[left]!1;	/* put my left fork on the table */

	/*
	 * A label that starts with "end" marks a valid end state: waiting
	 * here for a fork is fine when nothing else happens (the table is
	 * quiet), waiting anywhere else is a deadlock.
	 */
end:
	do
	:: fork[first]?1 ->	/* pick up the first fork */
		fork[second]?1;	/* and the second */
		eating++;
		/* neighbours cannot eat together, so at most N/2 eat */
		assert(eating <= N / 2);
		eating--;
		fork[second]!1;
		fork[first]!1
	od
}
