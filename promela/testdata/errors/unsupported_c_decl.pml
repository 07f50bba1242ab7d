// error: 2:1: c_decl is not supported by ftmc
c_decl { int y; }
