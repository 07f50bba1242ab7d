//go:build !linux

package explore

// machineSources knows nothing outside Linux: no default memory limit.
func machineSources() memorySources { return memorySources{} }
