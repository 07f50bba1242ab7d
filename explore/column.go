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
	if c.n>>columnShift == len(c.chunks) {
		c.chunks = append(c.chunks, make([]T, 1<<columnShift))
	}
	c.chunks[c.n>>columnShift][c.n&(1<<columnShift-1)] = v
	c.n++
}

func (c *column[T]) at(i int) T {
	return c.chunks[i>>columnShift][i&(1<<columnShift-1)]
}

func (c *column[T]) len() int { return c.n }

// bytes is the memory the column holds.
func (c *column[T]) bytes() int64 {
	var zero T
	return int64(len(c.chunks)) << columnShift * int64(unsafe.Sizeof(zero))
}
