// error: 2:1: a trace declaration \(event trace\) is not supported by ftmc
trace { do :: skip od }
