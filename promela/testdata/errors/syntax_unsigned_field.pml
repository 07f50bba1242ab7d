// error: 2:19: unsigned cannot be used as a message field type
chan c = [1] of { unsigned };
