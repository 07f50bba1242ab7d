package main

import (
	"runtime/debug"
	"strings"
)

// versionText is what `ftmc version` prints: the module's version and,
// when the build recorded them, the VCS revision, its time and whether the
// work tree had changes.
func versionText(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "ftmc (unknown version: built without module information)\n"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var b strings.Builder
	b.WriteString("ftmc " + v)
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		b.WriteString(" " + rev)
		if settings["vcs.modified"] == "true" {
			b.WriteString(" (modified)")
		}
		if t := settings["vcs.time"]; t != "" {
			b.WriteString(" " + t)
		}
	}
	if bi.GoVersion != "" {
		b.WriteString(" " + bi.GoVersion)
	}
	b.WriteByte('\n')
	return b.String()
}
