package explore

import (
	"errors"
	"fmt"
	"math"
	"runtime"

	"ftmc/trace"
)

// Lossy state storage, as Spin's -DBITSTATE and -DHC: the set of visited
// states is a bit array or a table of fingerprints instead of the vectors
// themselves, so that a state costs a few bits or 8 bytes. Two different
// states may then look the same, and the search skips the second one: it
// may miss states, and a violation in them. A search with lossy storage
// therefore never says holds; the violations it finds are real, since its
// counterexample is the search stack of exact vectors.
//
// The search is depth-first. It keeps the exact vectors only of the states
// on its stack and of those still to expand (dfsNew), in an arena indexed
// by Index. States are numbered as they are stored, so the live indices
// are ordered: a frame's successors come after its own index and after
// every successor pending in the frames below it, and a frame's pending
// successors are kept highest first (the search reverses them to explore
// the first transition first). When a frame is popped, the first pending
// successor of the new top frame, when it has any, is then the highest
// live index, and the arena is cut back to just above it: indices are
// reused, and the arena holds about what the stack holds.

// LossyMode is how a search stores the states it has visited.
type LossyMode int

const (
	// Exact stores every state vector: nothing is missed.
	Exact LossyMode = iota
	// Bitstate sets k = BitstateHashes bits per state in an array of
	// 2^LossyBits bits (Holzmann's supertrace, Spin's -DBITSTATE).
	Bitstate
	// HashCompact stores a 64-bit fingerprint per state in an
	// open-addressing table that doubles as it fills (Wolper and Leroy's
	// hash compaction, Spin's -DHC).
	HashCompact
)

func (m LossyMode) String() string {
	switch m {
	case Bitstate:
		return "bitstate"
	case HashCompact:
		return "hash-compact"
	}
	return "exact"
}

const (
	// DefaultBitstateBits is the default log2 of the bit array's size:
	// 2^32 bits, 512 MiB, as Spin's -w32.
	DefaultBitstateBits = 32
	// MinBitstateBits and MaxBitstateBits bound Options.LossyBits.
	MinBitstateBits = 3
	MaxBitstateBits = 40
	// BitstateHashes is the number of bits set per state, as Spin's
	// default -k3.
	BitstateHashes = 3
	// fingerprintBits is the size of a hash-compaction fingerprint.
	fingerprintBits = 64
)

// ErrLossyCompress is Run's error for lossy storage with Options.Compress:
// a lossy search keeps no compressed vectors.
var ErrLossyCompress = errors.New("--bitstate and --hash-compact store no state vectors: they exclude --compress")

// searchStore is the store a sequential search of o keeps its states in.
// A lossy store whose table cannot be had says why in lossy.err, and
// takes no state.
func (o Options) searchStore() *Store {
	if o.Lossy == Exact {
		return o.NewStore()
	}
	s := &Store{width: -2, lossy: &lossyStore{mode: o.Lossy}}
	s.lossy.err = s.lossy.init(o)
	return s
}

// lossyStore is the visited set of a lossy search and the arena of the
// vectors it still needs.
type lossyStore struct {
	mode    LossyMode
	words   []uint64 // the bit array, or the fingerprint table (0: empty slot)
	cleanup runtime.Cleanup
	logBits uint  // bitstate: the array has 2^logBits bits
	shift   uint  // hash compaction: 64 - log2(len(words))
	growAt  int   // hash compaction: the table doubles at this many fingerprints
	nfp     int   // hash compaction: fingerprints stored
	err     error // the table could not be allocated

	arena vecArena
}

func (l *lossyStore) init(o Options) error {
	var err error
	switch l.mode {
	case Bitstate:
		b := o.LossyBits
		if b == 0 {
			b = DefaultBitstateBits
		}
		if b < MinBitstateBits || b > MaxBitstateBits {
			return fmt.Errorf("a bit array of 2^%d bits: expected %d to %d", b, MinBitstateBits, MaxBitstateBits)
		}
		l.logBits = uint(b)
		if l.words, err = allocWords(max(1, 1<<b/64)); err != nil {
			return fmt.Errorf("cannot allocate a bit array of 2^%d bits (%s): %v", b, FormatBytes(max(8, int64(1)<<b/8)), err)
		}
	case HashCompact:
		log := minTableLog
		for log < 62 && o.ExpectedStates > loadLimit(1<<log) {
			log++
		}
		if l.words, err = allocWords(1 << log); err != nil {
			return fmt.Errorf("cannot allocate the fingerprint table: %v", err)
		}
		l.shift, l.growAt = uint(64-log), loadLimit(1<<log)
	}
	l.setWords(l.words)
	return nil
}

// setWords makes t the table, which is released with l (unless free
// releases it first).
func (l *lossyStore) setWords(t []uint64) {
	l.words = t
	l.cleanup = runtime.AddCleanup(l, freeWords, t)
}

func (l *lossyStore) free() {
	if l.words != nil {
		l.cleanup.Stop()
		freeWords(l.words)
	}
	l.words, l.arena = nil, vecArena{}
}

// bytes is the memory of the table and the arena, the arena at its
// largest: the figure of the statistics, and an upper bound for the
// memory limit.
func (l *lossyStore) bytes() int64 {
	return l.tableBytes() + max(l.arena.peak, l.arena.bytes())
}

// tableBytes is the memory of the bit array or fingerprint table, mapped
// outside the Go heap (allocWords).
func (l *lossyStore) tableBytes() int64 { return int64(len(l.words)) * 8 }

// bits returns the k bit positions of the state whose hash is h: double
// hashing (Kirsch and Mitzenmacher), the top bits of h + j*h2.
func (l *lossyStore) bits(h uint64) (p [BitstateHashes]uint64) {
	h2 := mix(h^hk1, hk2) | 1
	sh := 64 - l.logBits
	for j := range p {
		p[j] = (h + uint64(j)*h2) >> sh
	}
	return p
}

// has reports whether the state whose hash is h looks visited.
func (l *lossyStore) has(h uint64) bool {
	if l.mode == Bitstate {
		for _, b := range l.bits(h) {
			if l.words[b>>6]>>(b&63)&1 == 0 {
				return false
			}
		}
		return true
	}
	_, found := l.findFP(fingerprint(h))
	return found
}

func fingerprint(h uint64) uint64 {
	if h == 0 {
		return 1 // 0 marks an empty slot
	}
	return h
}

func (l *lossyStore) findFP(f uint64) (uint64, bool) {
	mask := uint64(len(l.words) - 1)
	for p := f >> l.shift; ; p = (p + 1) & mask {
		switch l.words[p] {
		case 0:
			return p, false
		case f:
			return p, true
		}
	}
}

// visit marks the state whose hash is h visited and reports whether it
// was not before; full when the fingerprint table cannot grow (room says
// whether extra bytes fit the memory limit).
func (l *lossyStore) visit(h uint64, room func(int64) bool) (isNew, full bool) {
	if l.mode == Bitstate {
		for _, b := range l.bits(h) {
			w := &l.words[b>>6]
			if *w>>(b&63)&1 == 0 {
				isNew = true
				*w |= 1 << (b & 63)
			}
		}
		return isNew, false
	}
	f := fingerprint(h)
	p, found := l.findFP(f)
	if found {
		return false, false
	}
	if l.nfp >= l.growAt {
		if !l.grow(room) {
			return false, true
		}
		p, _ = l.findFP(f)
	}
	l.words[p] = f
	l.nfp++
	return true, false
}

// grow doubles the fingerprint table, or when that does not fit lets it
// fill to 90%.
func (l *lossyStore) grow(room func(int64) bool) bool {
	size := len(l.words)
	if l.shift <= 1 || !room(int64(size)*16) {
		if hard := size / 10 * 9; l.growAt < hard {
			l.growAt = hard
			return true
		}
		return false
	}
	t, err := allocWords(2 * size)
	if err != nil {
		return false
	}
	mask, sh := uint64(len(t)-1), l.shift-1
	for _, f := range l.words {
		if f == 0 {
			continue
		}
		p := f >> sh
		for t[p] != 0 {
			p = (p + 1) & mask
		}
		t[p] = f
	}
	l.cleanup.Stop()
	freeWords(l.words)
	l.setWords(t)
	l.shift, l.growAt = sh, loadLimit(2*size)
	return true
}

// release cuts the arena back after a frame was popped (see the file's
// comment): frames and pending are the search's stack and dfsNew.
func (l *lossyStore) release(frames []dfsFrame, pending []Index) {
	n := 0
	if len(frames) > 0 {
		top := frames[len(frames)-1]
		if top.mark == len(pending) {
			// The top frame has nothing pending: it is popped next.
			return
		}
		n = int(pending[top.mark]) + 1
	}
	l.arena.truncate(n)
}

// vecArena holds vectors numbered 0, 1, 2, ... back to back in chunks
// that it never moves: appending copies nothing already there (a slice
// that doubled would copy, and leave the old array to the collector), and
// cutting the arena back keeps one chunk past the last for reuse.
type vecArena struct {
	chunks [][]byte // the used part of each chunk
	spare  []byte   // a chunk cut off, empty, for the next one
	starts []uint64 // vector i begins at chunks[starts[i]>>32][uint32(starts[i]):]
	live   int      // the most vectors held at once
	peak   int64    // the most bytes held at once (as of the last new chunk)
}

const (
	minArenaChunk = 4 << 10
	maxArenaChunk = 1 << 20
)

// push appends vec and returns its number.
func (a *vecArena) push(vec []byte) Index {
	c := len(a.chunks) - 1
	if c < 0 || len(a.chunks[c])+len(vec) > cap(a.chunks[c]) {
		size := minArenaChunk
		if c >= 0 {
			size = min(maxArenaChunk, 2*cap(a.chunks[c]))
		}
		size = max(size, len(vec))
		b := a.spare
		if cap(b) < size {
			b = make([]byte, 0, size)
		}
		a.spare = nil
		a.chunks = append(a.chunks, b[:0])
		c++
		a.peak = max(a.peak, a.bytes())
	}
	a.starts = append(a.starts, uint64(c)<<32|uint64(len(a.chunks[c])))
	a.chunks[c] = append(a.chunks[c], vec...)
	a.live = max(a.live, len(a.starts))
	return Index(len(a.starts) - 1)
}

// end is where vector i ends in its chunk c: where vector i+1 starts
// when it is in the same chunk, else the chunk's end.
func (a *vecArena) end(i int, c uint64) int {
	if i+1 < len(a.starts) && a.starts[i+1]>>32 == c {
		return int(uint32(a.starts[i+1]))
	}
	return len(a.chunks[c])
}

func (a *vecArena) get(i Index) []byte {
	loc := a.starts[i]
	c := loc >> 32
	return a.chunks[c][uint32(loc):a.end(int(i), c)]
}

// truncate drops the vectors from number n on.
func (a *vecArena) truncate(n int) {
	if n >= len(a.starts) {
		return
	}
	keep, end := 0, 0
	if n > 0 {
		c := a.starts[n-1] >> 32
		keep, end = int(c)+1, a.end(n-1, c)
		a.chunks[c] = a.chunks[c][:end]
	}
	if keep < len(a.chunks) && cap(a.chunks[keep]) > cap(a.spare) {
		a.spare = a.chunks[keep][:0]
	}
	clear(a.chunks[keep:])
	a.chunks = a.chunks[:keep]
	a.starts = a.starts[:n]
}

func (a *vecArena) len() int { return len(a.starts) }

// bytes is the memory the arena holds.
func (a *vecArena) bytes() int64 {
	n := int64(cap(a.spare)) + int64(cap(a.starts))*8
	for _, b := range a.chunks {
		n += int64(cap(b))
	}
	return n
}

// insertLossy is InsertHash for a lossy store. A state already visited
// has no index: it gets 0, which the search does not read.
func (s *Store) insertLossy(vec []byte, h uint64) (Index, bool) {
	l := s.lossy
	isNew, full := l.visit(h, s.room)
	if full {
		s.full = true
		return NoIndex, false
	}
	if !isNew {
		return 0, false
	}
	s.n++
	s.maxVec = max(s.maxVec, len(vec))
	return l.arena.push(vec), true
}

// prefetch hashes the batch's successors and reads the words they map
// to, as Store.prefetch does.
func (l *lossyStore) prefetch(b *batch) uint64 {
	evs := b.events
	b.hashSuccs()
	var touch uint64
	if l.mode == Bitstate {
		for k := range evs {
			if evs[k].kind == evSucc {
				for _, p := range l.bits(evs[k].h) {
					touch += l.words[p>>6]
				}
			}
		}
		return touch
	}
	for k := range evs {
		touch += l.words[fingerprint(evs[k].h)>>l.shift]
	}
	return touch
}

// Omission estimates the probability that a lossy search of n stored
// states missed a state, and says how it is computed.
//
// Hash compaction with b-bit fingerprints: Wolper and Leroy's bound
// n²/2^(b+1) on the probability that two of the n states had the same
// fingerprint.
//
// Bitstate with m bits and k hash functions: the i-th state stored found
// i states before it, which set at most k·i bits; it is taken for a
// visited one when its k bits are all set, with probability about
// (1−e^{−k·i/m})^k. The sum over i < n is the expected number of
// omissions and bounds the probability of at least one. For large n it is
// summed by blocks of up to n/2^20 states, each counted at its last
// (largest) term: an upper bound of the sum.
func Omission(mode LossyMode, logBits int, n int64) (p float64, how string) {
	switch mode {
	case HashCompact:
		p = float64(n) * float64(n) / math.Exp2(fingerprintBits+1)
		how = fmt.Sprintf("n²/2^%d, Wolper and Leroy's bound for %d-bit fingerprints", fingerprintBits+1, fingerprintBits)
	case Bitstate:
		if logBits == 0 {
			logBits = DefaultBitstateBits
		}
		m, k := math.Exp2(float64(logBits)), float64(BitstateHashes)
		term := func(i int64) float64 { return math.Pow(-math.Expm1(-k*float64(i)/m), k) }
		step := max(1, n>>20)
		for lo := int64(0); lo < n && p < 1; lo += step {
			hi := min(n, lo+step)
			p += float64(hi-lo) * term(hi-1)
		}
		how = fmt.Sprintf("Σ_{i<n} (1−e^{−k·i/m})^k with m = 2^%d bits, k = %d", logBits, BitstateHashes)
	}
	return min(1, p), how
}

// lossyResult turns the verdict of a lossy search that found no violation
// into unknown (see the file's comment), with the states stored and the
// probability that one was missed.
func (s *search) lossyResult(r *trace.Result) {
	n := int64(s.store.Len())
	p, how := Omission(s.opts.Lossy, s.opts.LossyBits, n)
	what := "hash compaction (64-bit fingerprints)"
	if s.opts.Lossy == Bitstate {
		b := s.opts.LossyBits
		if b == 0 {
			b = DefaultBitstateBits
		}
		what = fmt.Sprintf("bitstate storage (2^%d bits, %d hash functions)", b, BitstateHashes)
	}
	note := fmt.Sprintf("no violation found with %s: %d states stored; probability that a state was missed ≤ %.3g (%s)", what, n, p, how)
	if r.Verdict == trace.Unknown && r.Reason != "" {
		note = r.Reason + "; " + note
	}
	r.Verdict, r.Reason = trace.Unknown, note
}
