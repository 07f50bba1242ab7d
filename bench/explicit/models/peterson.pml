/* Peterson's filter lock for N processes, each entering its critical section
   forever; the assertion is mutual exclusion. The size grows fast with N.

   Benchmark sizes (spin -o1 -o2 -o3, -DSAFETY -DNOREDUCE):
     -DN=3      59,151 states, 40-byte vectors in Spin
     -DN=4  11,656,349 states, 48-byte vectors in Spin

   expect: holds
*/
#ifndef N
#define N 3
#endif

byte level[N];
byte victim[N];
byte incs;

active [N] proctype P() {
	byte l, k;
	do
	:: l = 1;
		do
		:: l < N ->
			level[_pid] = l;
			victim[l] = _pid;
			k = 0;
			do
			:: k == _pid -> k++
			:: k != _pid && k < N ->
				if
				:: level[k] >= l && victim[l] == _pid -> k = 0 /* wait: start over */
				:: else -> k++
				fi
			:: k == N -> break
			od;
			l++
		:: else -> break
		od;
		incs++;
		assert(incs == 1);
		incs--;
		level[_pid] = 0
	od
}
