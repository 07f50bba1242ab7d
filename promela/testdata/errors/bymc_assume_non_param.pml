// error: 3:8: assume\(\.\.\.\) at the top level may only use parameters and constants, found variable x
symbolic int N; byte x;
assume(x > N);
