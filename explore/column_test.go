package explore

import "testing"

// TestColumnBytes: a column holds its entries and at most one chunk's
// unused part, whatever its length, and reads back what was appended.
func TestColumnBytes(t *testing.T) {
	var c column[uint32]
	for n := 1; n <= 300_000; n++ {
		c.append(uint32(n * 7))
		used := int64(n) * 4
		if b := c.bytes(); b < used || b > used+4<<12 {
			t.Fatalf("%d entries in %d bytes", n, b)
		}
	}
	for i := range c.len() {
		if got := c.at(i); got != uint32((i+1)*7) {
			t.Fatalf("at(%d) = %d", i, got)
		}
	}
}
