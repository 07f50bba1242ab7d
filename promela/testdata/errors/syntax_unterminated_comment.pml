// error: 3:1: comment not terminated
active proctype P() { skip }
/* this comment never ends
