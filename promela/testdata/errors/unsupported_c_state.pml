// error: 2:1: c_state is not supported by ftmc
c_state "int z" "Global"
