// error: 3:16: run cannot be used in a variable initializer
proctype Q() { skip }
init { int x = run Q() }
