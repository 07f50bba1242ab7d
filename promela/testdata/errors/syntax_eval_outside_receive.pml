// error: 3:27: eval\(\.\.\.\) is only allowed as a receive argument
byte x;
active proctype P() { x = eval(x) }
