// error: 2:8: D_proctype is not supported by ftmc
active D_proctype P() { skip }
