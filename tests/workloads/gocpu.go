// gocpu: a Go program that writes its own CPU profile (runtime/pprof) to
// the file named by its argument while burning ~0.3 s in burnA and burnB:
// the Go-side pprof input of t7604.
package main

import (
	"os"
	"runtime/pprof"
	"time"
)

//go:noinline
func burnA(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i % 7
	}
	return s
}

//go:noinline
func burnB(n int) int { return burnA(n) + burnA(n/2) }

func main() {
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	end := time.Now().Add(300 * time.Millisecond)
	s := 0
	for time.Now().Before(end) {
		s += burnA(100000) + burnB(100000)
	}
	pprof.StopCPUProfile()
	f.Close()
	if s == 42 {
		println(s)
	}
}
