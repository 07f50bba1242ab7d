package compile

import (
	"ftmc/promela"
)

// cell says how a scalar is stored in the state vector: in size bytes,
// little-endian, truncated to mask on assignment, sign-extended when
// signed.
type cell struct {
	size   uint8
	signed bool
	mask   uint32
}

var (
	cellBit   = cell{size: 1, mask: 1}
	cellByte  = cell{size: 1, mask: 0xff}
	cellShort = cell{size: 2, signed: true, mask: 0xffff}
	cellInt   = cell{size: 4, signed: true, mask: 0xffffffff}
)

// cellOf returns the storage of a scalar type.
func cellOf(t *promela.Type) cell {
	switch t.Kind {
	case promela.TBit, promela.TBool:
		return cellBit
	case promela.TByte, promela.TPid, promela.TMtype, promela.TChan:
		return cellByte
	case promela.TShort:
		return cellShort
	case promela.TInt:
		return cellInt
	case promela.TUnsigned:
		b := t.Bits
		switch {
		case b <= 0:
			b = 1
		case b > 32:
			b = 32
		}
		m := uint32(1)<<uint(b) - 1
		if b == 32 {
			m = 0xffffffff
		}
		size := uint8(1)
		switch {
		case b > 16:
			size = 4
		case b > 8:
			size = 2
		}
		return cell{size: size, mask: m}
	}
	return cellInt
}

// trunc is the value a variable of this cell holds after x is assigned.
func (c cell) trunc(x int32) int32 {
	y := uint32(x) & c.mask
	switch {
	case c.signed && c.size == 2:
		return int32(int16(y))
	case c.signed:
		return int32(y)
	}
	return int32(y)
}

func (c cell) load(v []byte, off int) int32 {
	switch c.size {
	case 1:
		return int32(v[off])
	case 2:
		x := uint16(v[off]) | uint16(v[off+1])<<8
		if c.signed {
			return int32(int16(x))
		}
		return int32(x)
	}
	return int32(uint32(v[off]) | uint32(v[off+1])<<8 | uint32(v[off+2])<<16 | uint32(v[off+3])<<24)
}

func (c cell) store(v []byte, off int, x int32) {
	y := uint32(x) & c.mask
	switch c.size {
	case 1:
		v[off] = byte(y)
	case 2:
		v[off] = byte(y)
		v[off+1] = byte(y >> 8)
	default:
		v[off] = byte(y)
		v[off+1] = byte(y >> 8)
		v[off+2] = byte(y >> 16)
		v[off+3] = byte(y >> 24)
	}
}

// sizeOf returns the number of bytes a value of type t takes.
func sizeOf(t *promela.Type) int {
	switch t.Kind {
	case promela.TArray:
		n := t.Len
		if n < 0 {
			n = 0
		}
		return int(n) * sizeOf(t.Elem)
	case promela.TStruct:
		s := 0
		for _, f := range t.Fields {
			s += sizeOf(f.Type)
		}
		return s
	}
	return int(cellOf(t).size)
}

// fieldOffset returns the offset of field name in structure t.
func fieldOffset(t *promela.Type, name string) (int, *promela.Type) {
	off := 0
	for _, f := range t.Fields {
		if f.Name == name {
			return off, f.Type
		}
		off += sizeOf(f.Type)
	}
	return -1, nil
}

// scalars calls fn for every scalar inside a value of type t stored at
// off, in order (arrays element by element, structures field by field).
func scalars(t *promela.Type, off int, fn func(off int, t *promela.Type)) {
	switch t.Kind {
	case promela.TArray:
		es := sizeOf(t.Elem)
		for i := int64(0); i < t.Len; i++ {
			scalars(t.Elem, off+int(i)*es, fn)
		}
	case promela.TStruct:
		for _, f := range t.Fields {
			scalars(f.Type, off, fn)
			off += sizeOf(f.Type)
		}
	default:
		fn(off, t)
	}
}

// varInfo is where a variable lives.
type varInfo struct {
	decl   *promela.VarDecl
	sym    *promela.Symbol
	name   string
	typ    *promela.Type
	off    int  // globals: offset in the working vector; locals: offset in the process segment
	size   int  // bytes
	local  bool // a local variable or parameter
	hidden bool // a hidden global: in the working vector's prefix, not in the state
	proc   *procType
}

// chanType is the layout of the channels created by one declaration.
type chanType struct {
	base    int    // the segment header is base + the channel's length
	hdr     int    // bytes of the segment header
	name    string // the declared name, for traces
	cap     int    // 0: rendezvous
	slots   int    // max(cap, 1)
	fields  []cell // the flattened fields of a message
	ftypes  []*promela.Type
	foff    []int // offset of each field in a message
	msgSize int
	size    int // segment size: header and slots
}

// newChanType lays out the channels of a declaration.
func newChanType(name string, ci *promela.ChanInit) *chanType {
	ct := &chanType{name: name, cap: int(ci.Size)}
	for _, t := range ci.Types {
		scalars(t, 0, func(_ int, st *promela.Type) {
			c := cellOf(st)
			ct.fields = append(ct.fields, c)
			ct.ftypes = append(ct.ftypes, st)
			ct.foff = append(ct.foff, ct.msgSize)
			ct.msgSize += int(c.size)
		})
	}
	ct.slots = ct.cap
	if ct.slots < 1 {
		ct.slots = 1
	}
	return ct
}

// segType is what a segment header stands for: a process of a proctype
// (the header is base + its program counter) or a channel of a channel
// type (base + its length).
type segType struct {
	proc *procType
	ch   *chanType
	size int
	base int
}
