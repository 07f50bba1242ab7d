// error: 2:30: string not terminated
active proctype P() { printf("hello) }
