package explore

import "unsafe"

// column is an append-only array in fixed-size chunks: appending never copies
// what is stored, so columns of hundreds of millions of entries grow without
// the transient doubling of a slice.
type column[T uint32 | uint64] struct {
	chunks [][]T
	n      int
}

const columnShift = 16 // entries per chunk: 64Ki

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
	var zero T
	n := 0
	for _, ch := range c.chunks {
		n += len(ch)
	}
	return int64(n) * int64(unsafe.Sizeof(zero))
}
