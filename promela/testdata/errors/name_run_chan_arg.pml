// error: 4:14: argument 1 of run P: parameter c is chan, found x
proctype P(chan c) { skip }
byte x;
init { run P(x) }
