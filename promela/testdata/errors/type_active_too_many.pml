// error: 2:9: at most 255 processes can be active, found 300
active [300] proctype P() { skip }
