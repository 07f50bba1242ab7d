package explore

import (
	"encoding/binary"
	"math/bits"
)

// The hash is a wyhash-style mix: each 16-byte block goes through one
// 64x64->128-bit multiplication, whose two halves are folded together. It is
// fast on the short vectors models produce (tens to hundreds of bytes) and its
// high bits, which pick the table slot, are well mixed.
const (
	hk0 = 0xa0761d6478bd642f
	hk1 = 0xe7037ed1a0b428db
	hk2 = 0x8ebc6af09c88c6e3
	hk3 = 0x589965cc75374cc3
)

func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// Hash returns a 64-bit hash of b. It is not cryptographic; it only has to
// spread state vectors over the hash table.
func Hash(b []byte) uint64 {
	n := len(b)
	h := uint64(n)*hk0 ^ hk3
	for len(b) > 16 {
		h = mix(binary.LittleEndian.Uint64(b)^hk1, binary.LittleEndian.Uint64(b[8:])^h)
		b = b[16:]
	}
	// 0..16 bytes are left (16 only when n >= 16): read them with
	// overlapping loads instead of a byte loop.
	var x, y uint64
	switch m := len(b); {
	case m >= 8:
		x = binary.LittleEndian.Uint64(b)
		y = binary.LittleEndian.Uint64(b[m-8:])
	case m >= 4:
		x = uint64(binary.LittleEndian.Uint32(b))
		y = uint64(binary.LittleEndian.Uint32(b[m-4:]))
	case m > 0:
		x = uint64(b[0])<<16 | uint64(b[m>>1])<<8 | uint64(b[m-1])
	}
	h = mix(x^hk1, y^h)
	return mix(h^hk2, uint64(n)^hk1)
}
