// error: 3:27: unexpected character '\$'
byte x;
active proctype P() { x = $1 }
