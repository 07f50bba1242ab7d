//go:build unix

package explore

import (
	"syscall"
	"unsafe"
)

// The hash table lives outside the Go heap: a table that doubles would
// otherwise leave its old half as garbage until the next collection, so the
// process would hold up to twice the memory the store reports. Anonymous
// mappings are zero-filled by the kernel and returned at once by munmap.

func allocWords(n int) ([]uint64, error) {
	if n == 0 {
		return nil, nil
	}
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	adviseHuge(b)
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n), nil
}

func freeWords(w []uint64) {
	if len(w) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8)
	_ = syscall.Munmap(b)
}
