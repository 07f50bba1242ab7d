package explore

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestBudgetMemory: a memory budget below what the runtime holds cancels
// the context at once, with a LimitReached cause that StopCause reads.
func TestBudgetMemory(t *testing.T) {
	ctx, stop := Budget{Memory: 1, MemoryFrom: "test"}.Bound(context.Background())
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("a 1-byte memory budget did not cancel the context")
	}
	if l := LimitCause(ctx); l == nil || !strings.HasPrefix(l.Msg, "memory limit 1 B (test) reached") {
		t.Errorf("cause %v; want the memory limit", context.Cause(ctx))
	}
	if got := StopCause(ctx); !strings.HasPrefix(got, "memory limit 1 B") {
		t.Errorf("StopCause %q", got)
	}
}

// TestBudgetTimeSince: the deadline counts from Since, so that a budget
// spent before Bound is called cancels at once, saying which limit.
func TestBudgetTimeSince(t *testing.T) {
	b := Budget{Time: time.Second, Since: time.Now().Add(-2 * time.Second)}
	ctx, stop := b.Bound(context.Background())
	defer stop()
	if ctx.Err() == nil {
		t.Fatal("a spent budget left the context live")
	}
	if got := StopCause(ctx); got != "time limit 1s reached" {
		t.Errorf("StopCause %q", got)
	}
	live, stop2 := Budget{}.Bound(context.Background())
	defer stop2()
	if live.Err() != nil || LimitCause(live) != nil {
		t.Error("a budget without limits cancelled the context")
	}
}

// MemoryRoom reads the limit Bound set, less what is in use; without a
// memory limit there is none to read.
func TestMemoryRoom(t *testing.T) {
	if _, ok := MemoryRoom(context.Background()); ok {
		t.Fatal("room reported without a limit")
	}
	ctx, stop := Budget{Memory: 1 << 40}.Bound(context.Background())
	defer stop()
	room, ok := MemoryRoom(ctx)
	if !ok || room <= 0 || room >= 1<<40 {
		t.Fatalf("room %d, ok %v: want below the limit by what is in use", room, ok)
	}
	ctx, stop2 := Budget{Time: time.Hour}.Bound(context.Background())
	defer stop2()
	if _, ok := MemoryRoom(ctx); ok {
		t.Fatal("room reported with a time limit only")
	}
}
