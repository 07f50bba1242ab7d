package explore

import "unsafe"

// column is an append-only array in fixed-size chunks: appending never copies
// what is stored, so columns of hundreds of millions of entries grow without
// the transient doubling of a slice.
type column[T uint32 | uint64] struct {
	chunks [][]T
	n      int
}

// columnShift gives the entries per chunk, 4Ki: the last chunk's unused
// part is at most 16 or 32 KiB, which counts per state in a search of a
// few hundred thousand states (a parallel search's worker keeps a column
// of parents of its own), and a chunk more costs a 24-byte slice header.
const columnShift = 12

func (c *column[T]) append(v T) {
	if k := c.n >> columnShift; k == len(c.chunks) || k == 0 && c.n == len(c.chunks[0]) {
		c.grow()
	}
	c.chunks[c.n>>columnShift][c.n&(1<<columnShift-1)] = v
	c.n++
}

// grow adds a chunk. The first chunk starts small and doubles, so that a
// small search does not take a full chunk.
func (c *column[T]) grow() {
	if len(c.chunks) == 1 && len(c.chunks[0]) < 1<<columnShift {
		b := make([]T, 2*len(c.chunks[0]))
		copy(b, c.chunks[0])
		c.chunks[0] = b
		return
	}
	size := 1 << columnShift
	if len(c.chunks) == 0 {
		size = 1 << 10
	}
	c.chunks = append(c.chunks, make([]T, size))
}

func (c *column[T]) at(i int) T {
	return c.chunks[i>>columnShift][i&(1<<columnShift-1)]
}

func (c *column[T]) set(i int, v T) {
	c.chunks[i>>columnShift][i&(1<<columnShift-1)] = v
}

func (c *column[T]) len() int { return c.n }

// bytes is the memory the column holds.
func (c *column[T]) bytes() int64 {
	if len(c.chunks) == 0 {
		return 0
	}
	// Every chunk but the first has 1<<columnShift entries (grow).
	var zero T
	n := len(c.chunks[0]) + (len(c.chunks)-1)<<columnShift
	return int64(n) * int64(unsafe.Sizeof(zero))
}
