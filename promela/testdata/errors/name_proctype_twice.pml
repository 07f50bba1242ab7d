// error: 3:10: P redeclared
proctype P() { skip }
proctype P() { skip }
