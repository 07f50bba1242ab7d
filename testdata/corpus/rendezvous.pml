// Rendezvous channels: a handshake between a client and a server through
// a request and a reply channel, with several clients competing for one
// server.
// Exercises: rendezvous chan ([0]), active [N], _pid, send/receive with several fields, end label.
// ftmc: check -D CLIENTS=2
// expect: holds
// ftmc: check -D CLIENTS=3
// expect: holds

chan request = [0] of { byte, byte };
chan reply[CLIENTS] = [0] of { byte };

active [CLIENTS] proctype client() {
	byte answer;
	request!_pid, _pid * 10;
	reply[_pid]?answer;
	assert(answer == _pid * 10 + 1)
}

active proctype server() {
	byte who, val;
end:
	do
	:: request?who, val -> reply[who]!val + 1
	od
}
