// error: 3:38: else must be the first statement of an option
byte x;
active proctype P() { if :: x > 0 -> else fi }
