// error: 2:7: undeclared mtype fruit
mtype:fruit f;
