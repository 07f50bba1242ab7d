/* Leader election on a unidirectional ring (Chang and Roberts): every node
   sends its identifier clockwise, forwards larger identifiers, drops smaller
   ones; the node that receives its own identifier is the leader and tells the
   others. The identifiers are a permutation of 1..N chosen by init, so every
   arrangement of the ring is explored; the size grows with N and with the
   channel capacity C.

   Benchmark sizes (spin -o1 -o2 -o3, -DSAFETY -DNOREDUCE):
     -DN=5 -DC=2     474,281 states, 120-byte vectors in Spin
     -DN=6 -DC=2  14,887,669 states, 136-byte vectors in Spin

   expect: holds
*/
#ifndef N
#define N 5
#endif
#ifndef C
#define C 2
#endif

mtype = { elect, leader };
chan ring[N] = [C] of { mtype, byte };
byte nleaders;
byte known[N];

proctype node(byte me; byte id) {
	byte v;
	byte best = id;
	ring[(me + 1) % N] ! elect, id;
end:
	do
	:: ring[me] ? elect, v ->
		if
		:: v > best -> best = v; ring[(me + 1) % N] ! elect, v
		:: v < best -> skip
		:: v == best && v == id ->
			nleaders++;
			assert(nleaders == 1);
			ring[(me + 1) % N] ! leader, id
		fi
	:: ring[me] ? leader, v ->
		known[me] = v;
		assert(v == N);
		if
		:: v != id -> ring[(me + 1) % N] ! leader, v
		:: else -> skip
		fi
	od
}

init {
	byte i, k, id;
	bool used[N + 1];
	atomic {
		i = 0;
		do
		:: i < N ->
			k = 0; /* pick the k-th unused identifier, any k */
			do
			:: k < N - 1 - i -> k++
			:: break
			od;
			id = 1;
			do
			:: used[id] -> id++
			:: !used[id] && k > 0 -> k--; id++
			:: !used[id] && k == 0 -> break
			od;
			used[id] = true;
			run node(i, id);
			i++
		:: else -> break
		od
	}
}
