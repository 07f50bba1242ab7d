// error: 2:21: priority is not supported by ftmc
active proctype P() priority 2 { skip }
