// error: 3:12: proctype P expects 2 arguments, found 1
proctype P(byte a, b) { skip }
init { run P(1) }
