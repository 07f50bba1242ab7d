// error: 2:2: unknown preprocessor directive #frobnicate
#frobnicate
