// error: 3:5: ltl formula p declared twice
ltl p { true }
ltl p { false }
