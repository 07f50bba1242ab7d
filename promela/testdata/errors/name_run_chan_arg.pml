// error: 4:14: argument 1 of run P: parameter c is chan, found 1
proctype P(chan c) { skip }
byte x;
init { run P(1) }
