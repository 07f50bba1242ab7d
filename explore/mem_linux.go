//go:build linux

package explore

import "syscall"

// adviseHuge asks for transparent huge pages where the system leaves them to
// madvise: a table of gigabytes probed at random otherwise costs a page fault
// per 4 KiB on first touch and a TLB miss on almost every probe.
func adviseHuge(b []byte) {
	if len(b) >= 2<<20 {
		_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	}
}
