package explore

import (
	"encoding/binary"
	"math/bits"
)

// The store keeps its vectors in two arenas: fixed-width records addressed
// by arithmetic, for the (usually overwhelming) majority of states whose
// vectors have the common length, and length-prefixed records for the
// others.

// fixedArena holds records of one width, 1<<shift records per chunk.
type fixedArena struct {
	width  int
	chunks [][]byte
	shift  uint
	mask   Index
	bytes  int64
}

func newFixedArena(width int) fixedArena {
	shift := uint(max(8, 22-bits.Len(uint(width)))) // chunks of about 4 MiB
	return fixedArena{width: width, shift: shift, mask: 1<<shift - 1}
}

func (a *fixedArena) get(i Index) []byte {
	o := int(i&a.mask) * a.width
	return a.chunks[i>>a.shift][o : o+a.width]
}

// slot returns the record of state i, allocating its chunk when needed (nil
// when room refuses the memory). The first chunk starts small and doubles,
// so that a model of a few states does not take megabytes; vectors handed
// out by get before it moved keep their (unchanged) contents, as the old
// chunk stays valid Go memory.
func (a *fixedArena) slot(i int, room func(int64) bool) []byte {
	c := i >> a.shift
	o := (i & int(a.mask)) * a.width
	full := a.width << a.shift
	switch {
	case c == 0 && (len(a.chunks) == 0 || o+a.width > len(a.chunks[0])):
		old := 0
		if len(a.chunks) > 0 {
			old = len(a.chunks[0])
		}
		size := max(o+a.width, min(full, max(2*old, 4<<10)))
		if !room(int64(size - old)) {
			return nil
		}
		b := make([]byte, size)
		if old > 0 {
			copy(b, a.chunks[0])
			a.chunks[0] = b
		} else {
			a.chunks = append(a.chunks, b)
		}
		a.bytes += int64(size - old)
	case c == len(a.chunks):
		if !room(int64(full)) {
			return nil
		}
		a.chunks = append(a.chunks, make([]byte, full))
		a.bytes += int64(full)
	}
	return a.chunks[c][o : o+a.width]
}

// varArena holds length-prefixed records numbered 0, 1, 2, ... in the order
// they were appended, with the address of every 8th record kept to find the
// others.
type varArena struct {
	chunks [][]byte
	off    int // write offset in the last chunk
	marks  column[uint64]
	n      int
	bytes  int64
}

const (
	arenaChunk = 4 << 20
	markShift  = 3
)

func (a *varArena) get(r int) []byte {
	m := a.marks.at(r >> markShift)
	ci, o := int(m>>32), int(uint32(m))
	for k := r & (1<<markShift - 1); ; k-- {
		c := a.chunks[ci]
		if o >= len(c) || c[o] == 0 { // the rest of a chunk is unused
			ci, o = ci+1, 0
			c = a.chunks[ci]
		}
		l, w := binary.Uvarint(c[o:])
		o += w
		if k == 0 {
			e := o + int(l-1)
			return c[o:e:e]
		}
		o += int(l - 1)
	}
}

// append adds vec as record a.n; false when room refuses the memory.
func (a *varArena) append(vec []byte, room func(int64) bool) bool {
	prefix := uint64(len(vec)) + 1 // 0 marks the unused end of a chunk
	need := uvarintLen(prefix) + len(vec)
	last := len(a.chunks) - 1
	switch {
	case last <= 0 && a.off+need <= arenaChunk && (last < 0 || a.off+need > len(a.chunks[0])):
		// The first chunk starts small and doubles (see fixedArena.slot).
		old := 0
		if last == 0 {
			old = len(a.chunks[0])
		}
		size := max(a.off+need, min(arenaChunk, max(2*old, 4<<10)))
		if !room(int64(size - old)) {
			return false
		}
		b := make([]byte, size)
		if last == 0 {
			copy(b, a.chunks[0])
			a.chunks[0] = b
		} else {
			a.chunks = append(a.chunks, b)
		}
		a.bytes += int64(size - old)
	case last < 0 || a.off+need > len(a.chunks[last]):
		size := max(arenaChunk, need)
		if !room(int64(size)) {
			return false
		}
		// Chunks start zeroed, so the unused end of the previous chunk
		// already reads as the end marker.
		a.chunks = append(a.chunks, make([]byte, size))
		a.bytes += int64(size)
		a.off = 0
	}
	if a.n&(1<<markShift-1) == 0 {
		a.marks.append(uint64(len(a.chunks)-1)<<32 | uint64(a.off))
	}
	c := a.chunks[len(a.chunks)-1]
	o := a.off + binary.PutUvarint(c[a.off:], prefix)
	a.off = o + copy(c[o:], vec)
	a.n++
	return true
}

func (a *varArena) memory() int64 { return a.bytes + a.marks.bytes() }

func uvarintLen(x uint64) int {
	return (bits.Len64(x|1) + 6) / 7
}
