package mcmt

import "ftmc/trace"

// VerdictWords is a verdict on a model's safety property as the model's
// own checker words it: Cubicle ends with "The system is SAFE" or
// "UNSAFE !", and MCMT, too, calls the system safe or unsafe. It is
// "Cubicle: SAFE", "MCMT: UNSAFE", ..., or "" for unknown (ftmc's reason
// says more than a word) and for a language it does not know. The verdict
// is on the unsafe states: holds (unreachable) is SAFE.
func VerdictWords(lang string, v trace.Verdict) string {
	var tool string
	switch lang {
	case LangCubicle:
		tool = "Cubicle"
	case LangMCMT, LangMCMT1:
		tool = "MCMT"
	default:
		return ""
	}
	switch v {
	case trace.Holds:
		return tool + ": SAFE"
	case trace.Violated:
		return tool + ": UNSAFE"
	}
	return ""
}
