// error: 2:10: expected a proctype name, found '\('
proctype () { skip }
