// error: 3:16: priority is not supported by ftmc
proctype P() { skip }
init { run P() priority 3 }
