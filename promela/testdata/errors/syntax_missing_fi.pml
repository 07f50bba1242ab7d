// error: 4:1: expected ';', '::' or 'fi', found '}'
active proctype P() {
  if :: skip
}
