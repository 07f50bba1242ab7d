// error: 2:17: initializer in parameter list
proctype P(byte x = 1) { skip }
init { run P(1) }
