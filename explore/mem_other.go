//go:build !unix

package explore

func allocWords(n int) ([]uint64, error) { return make([]uint64, n), nil }

func freeWords([]uint64) {}
