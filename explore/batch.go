package explore

import (
	"fmt"

	"ftmc/state"
)

// Successors are not inserted as the model reports them but collected in a
// batch (the successors of up to batchStates states), hashed, and their
// table slots read once in a tight loop before any insertion. On a table of
// gigabytes nearly every slot read is a cache miss; independent reads in a
// loop overlap in the memory system, where the reads of one insertion after
// another would each wait their full latency. The batch keeps generation
// order, so states are numbered and violations found as without it.

const (
	batchStates = 32  // expansions per batch (breadth-first)
	batchEvents = 512 // or this many successors, whichever comes first
)

type eventKind uint8

const (
	evSucc     eventKind = iota
	evFail               // a failing transition: Sink.Fail
	evDeadlock           // a terminal state that is not a valid end
)

// event is a successor (its vector in batch.data) or a violation found while
// expanding state from.
type event struct {
	kind eventKind
	// foreign: from is a state of another worker's store, whose Gets this
	// store does not keep (a compressed store diffs such a successor
	// against its previous insertion instead).
	foreign  bool
	from     Index
	off, len uint32 // evSucc: the vector in data; evFail: off indexes fails
	h        uint64 // evSucc: the vector's hash; 0 for others (pass 2 reads slot 0)
}

type failure struct {
	t         state.Trans
	kind, msg string
}

type batch struct {
	events []event
	data   []byte
	fails  []failure
	states int // expansions in the batch
}

func (b *batch) reset() {
	b.events, b.data, b.fails, b.states = b.events[:0], b.data[:0], b.fails[:0], 0
}

func (b *batch) full() bool {
	return b.states >= batchStates || len(b.events) >= batchEvents
}

func (b *batch) succ(from Index, v []byte) {
	b.events = append(b.events, event{kind: evSucc, from: from, off: uint32(len(b.data)), len: uint32(len(v))})
	b.data = append(b.data, v...)
}

// flush inserts the batch's successors in order and handles its violations,
// stopping at the first.
func (s *search) flush() {
	b := &s.batch
	evs := b.events
	st := s.store
	if s.shared != nil {
		s.touched += s.shared.touch(b)
	} else if st.lossy != nil {
		s.touched += st.lossy.prefetch(b)
	} else if st.tree == nil {
		s.touched += st.prefetch(b) // keeps the reads
	} else {
		s.touched += st.tree.prefetch(b)
	}
	// Pass 4: insert in order.
	for k := range evs {
		e := &evs[k]
		switch e.kind {
		case evSucc:
			v := b.data[e.off : e.off+e.len]
			s.transitions++
			var i Index
			var isNew bool
			if s.shared != nil {
				i, isNew = s.shared.insertFrom(v, e.h, e.from)
			} else {
				i, isNew = st.InsertHash(v, e.h)
			}
			if !isNew {
				if i == NoIndex {
					s.stopFull()
					break
				}
				s.matched++
				continue
			}
			if s.opts.Order == BreadthFirst {
				s.parents.append(e.from)
			} else {
				s.dfsNew = append(s.dfsNew, i)
			}
			if s.checker != nil {
				s.checkState(e.from, i, v)
			}
			s.visit(e.from, i, v)
			if s.viol == nil && s.overLimit() {
				s.stop = fmt.Sprintf("state limit %d reached", s.opts.MaxStates)
			}
		case evFail:
			f := b.fails[e.off]
			if f.kind == state.KindLimitReached {
				s.stop = f.msg
				break
			}
			s.viol = &violation{kind: f.kind, msg: f.msg, path: s.pathTo(e.from), trans: f.t, failing: true}
		case evDeadlock:
			s.viol = &violation{kind: state.KindInvalidEnd, msg: "invalid end state", path: s.pathTo(e.from)}
		}
		if s.viol != nil || s.stop != "" {
			break
		}
	}
	b.reset()
}

// hashSuccs sets the hash of each of the batch's successors.
func (b *batch) hashSuccs() {
	for k := range b.events {
		e := &b.events[k]
		if e.kind == evSucc {
			e.h = Hash(b.data[e.off : e.off+e.len])
		}
	}
}

// prefetch hashes the batch's successors and reads their home slots and,
// where the tag matches, the stored vector, so that the insertions find
// them in the cache. The sum of what it read keeps the reads.
func (st *Store) prefetch(b *batch) uint64 {
	evs := b.events
	// Pass 1: hash. Pass 2: read each home slot, in a loop short enough
	// that many reads are in flight at once.
	b.hashSuccs()
	var touch uint64
	shift, table := st.shift, st.table
	for k := range evs {
		touch += table[evs[k].h>>shift]
	}
	// Pass 3: where the home slot holds the same tag (usually the same
	// state: a matched successor), read the stored vector's first byte.
	if f := &st.fixed; st.width > 0 {
		for k := range evs {
			e := &evs[k]
			if e.kind == evSucc {
				// An empty slot (0) is no stored state, even for a hash
				// whose tag is 0.
				if w := table[e.h>>shift]; w != 0 && w>>32 == e.h>>32 {
					if i := Index(w) - 1; st.nexc == 0 || !st.isExc(i) {
						touch += uint64(f.chunks[i>>f.shift][int(i&f.mask)*f.width])
					}
				}
			}
		}
	}
	return touch
}
