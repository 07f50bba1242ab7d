/*
 * Peterson's mutual exclusion algorithm for two processes (1981).
 *
 * Each process announces that it wants to enter (flag), then politely
 * gives the other process priority (turn), and waits until the other
 * process either does not want to enter or has given priority back.
 * The counter incrit counts the processes in the critical section; the
 * assertion says that there is never more than one.
 *
 *   ftmc check examples/promela/peterson.pml
 *
 * explores every interleaving of the two processes (a few dozen states)
 * and reports that the assertion holds and that there is no deadlock.
 * Try swapping the two assignments before the wait: ftmc then finds an
 * interleaving that lets both processes in, and prints it step by step.
 *
 * ftmc: check
 * expect: holds
 */

bool flag[2];	/* flag[i]: process i wants to enter */
byte turn;	/* the process that must wait if both want to enter */
byte incrit;	/* processes in the critical section */

active [2] proctype user()
{
	byte other = 1 - _pid;	/* the pids are 0 and 1 */

again:
	flag[_pid] = true;
	turn = _pid;
	/* An expression as a statement blocks until it is true. */
	(flag[other] == false || turn == other);

	/* critical section */
	incrit++;
	assert(incrit == 1);
	incrit--;

	flag[_pid] = false;
	goto again
}
