package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPage writes tables from a small run directory into a page: the text
// around the markers stays, the old table goes, every row is there.
func TestPage(t *testing.T) {
	out := t.TempDir()
	header := "CHAN,ORDER,BUF,verdict,kind,reason,states,transitions,depth,seconds,states_per_sec,memory_bytes,complete\n"
	for _, a := range algs {
		sweep := header +
			"B,SPLIT,1,violated,invalid end state,,68794,279724,15,0.171,401821,18061576,false\n" +
			"R,SPLIT,1,violated,assertion,,507,1331,8,0.002,212959,7403784,false\n" +
			"I,SPLIT,2,unknown,,time limit 2m0s reached after 123 states,123,456,,120.0,1,1,false\n"
		if err := os.WriteFile(filepath.Join(out, "sweep-"+a+".csv"), []byte(sweep), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	whole := header + "B,SPLIT,1,holds,,,1234567,2345678,,3.5,1,1,true\n"
	if err := os.WriteFile(filepath.Join(out, "whole-weak-completeness.csv"), []byte(whole), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "spin-bfs.tsv"), []byte("B\t1\t70001\tinvalid end state\t0.2\t6000\n"), 0o644)
	os.WriteFile(filepath.Join(out, "fifo-weak-accuracy.csv"), []byte("WAIT,CHAN,ORDER,BUF,verdict,kind,reason,states,transitions,depth,seconds,states_per_sec,memory_bytes,complete\n"+
		"FDR2,B,FIFO,1,holds,,,1208315,5000000,,9.5,1,1,true\n"), 0o644)
	os.WriteFile(filepath.Join(out, "models.rev"), []byte("abc1234 (2026-11-23)\n"), 0o644)
	os.WriteFile(filepath.Join(out, "claims.json"), []byte(`[{"model":"weak-completeness","args":["check","-D","PROP=WC"],"expected":"violated (assertion)","got":"safety: violated (assertion)","states":42,"seconds":0.5}]`), 0o644)
	pg := filepath.Join(out, "page.md")
	text := "# Title\n\nbefore\n<!-- generated: results -->\nold row\n<!-- end -->\nbetween\n<!-- generated: table1 -->\n<!-- end -->\n" +
		"<!-- generated: monitors -->\n<!-- end -->\n<!-- generated: fifo -->\n<!-- end -->\n<!-- generated: ltl -->\n<!-- end -->\n<!-- generated: models -->\n<!-- end -->\nafter\n"
	if err := os.WriteFile(pg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := page(out, pg); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(pg)
	got := string(data)
	for _, want := range []string{
		"# Title\n\nbefore\n<!-- generated: results -->\n| algorithm |",
		"| weak-completeness | B | SPLIT | 1 | **deadlock** | 68,794 | 279,724 | 15 | 0.17 | 1,234,567 |",
		"| strong-completeness | R | SPLIT | 1 | **assertion** | 507 |",
		"| weak-accuracy | I | SPLIT | 2 | unknown (time limit 2m0s) | 123 |",
		"| 1 | B | 588,641 (44 s) |",
		"| 68,794 (0.17 s, deadlock) | 70,001, 6,000 nominal (0.20 s) | 1,234,567 |",
		"| weak-completeness | `ftmc check -D PROP=WC` | violated (assertion) | safety: violated (assertion) | 42 |",
		"(no such runs in the model headers yet)",
		"| weak-accuracy | FDR2 | 1 | holds | 1,208,315 |  | 9.50 |",
		"models of commit abc1234 (2026-11-23).",
		"<!-- end -->\nafter\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "old row") {
		t.Errorf("the old table stayed:\n%s", got)
	}
	// Twice gives the same page.
	if err := page(out, pg); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(pg); string(again) != got {
		t.Errorf("a second run changed the page")
	}
	// A run of some steps only: the other tables stay, and the models line
	// says where the new ones come from.
	partial := t.TempDir()
	os.WriteFile(filepath.Join(partial, "models.rev"), []byte("def5678 (2026-11-25)\n"), 0o644)
	os.WriteFile(filepath.Join(partial, "claims.json"), []byte(`[{"model":"weak-completeness","args":["check","-D","PROP=WC"],"expected":"holds","got":"safety: holds","states":43,"seconds":0.5}]`), 0o644)
	for k := 0; k < 2; k++ {
		if err := page(partial, pg); err != nil {
			t.Fatal(err)
		}
	}
	data, _ = os.ReadFile(pg)
	got = string(data)
	for _, want := range []string{
		"| weak-completeness | B | SPLIT | 1 | **deadlock** | 68,794 |",
		"| weak-completeness | `ftmc check -D PROP=WC` | holds | safety: holds | 43 |",
		"models of commit abc1234 (2026-11-23); the tables ltl, monitors are from the models of commit def5678 (2026-11-25).\n<!-- end -->",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("partial run: page lacks %q:\n%s", want, got)
		}
	}
	os.WriteFile(pg, []byte("<!-- generated: results -->\nno end\n"), 0o644)
	if err := page(out, pg); err == nil {
		t.Error("a table without its end marker is not an error")
	}
}
