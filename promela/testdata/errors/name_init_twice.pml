// error: 3:1: init declared twice
init { skip }
init { skip }
