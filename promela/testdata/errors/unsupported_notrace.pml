// error: 2:1: a notrace declaration \(event trace\) is not supported by ftmc
notrace { do :: skip od }
