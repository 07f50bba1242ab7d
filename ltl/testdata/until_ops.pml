// Until, weak until, release and the operator words.
// ftmc: check --ltl strong
// expect strong: holds
// ftmc: check --ltl weak
// expect weak: holds
// ftmc: check --ltl rel
// expect rel: holds
// ftmc: check --ltl words
// expect words: holds
// ftmc: check --ltl strong_fail
// expect strong_fail: violated (acceptance cycle)
// ftmc: check --ltl weak_fail
// expect weak_fail: violated (acceptance cycle)

byte phase;

active proctype P() {
	do
	:: phase == 0 -> phase = 1
	:: phase == 1 -> phase = 2
	:: phase == 1 -> phase = 1
	:: phase == 2 -> phase = 0
	od
}

ltl strong { (phase == 0) U (phase == 1) }
ltl weak { [] ((phase == 1) -> ((phase == 1) W (phase == 2))) }
ltl rel { (phase == 2) V (phase <= 2) }
ltl words { always ((phase == 2) implies eventually (phase == 0)) }
ltl strong_fail { [] ((phase == 1) -> ((phase == 1) U (phase == 2))) }
ltl weak_fail { (phase == 0) weakuntil (phase == 2) }
