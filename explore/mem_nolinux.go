//go:build unix && !linux

package explore

func adviseHuge([]byte) {}
