module ftmc

go 1.26
