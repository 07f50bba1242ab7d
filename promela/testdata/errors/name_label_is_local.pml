// error: 2:31: label k has the name of a local variable
active proctype P() { byte k; k: skip }
