// Package benchproc holds what btviz's benchmark commands (benchscan,
// benchproxy) do alike around a measurement: profiling a process on
// request and having the emulator under test collect its garbage.
package benchproc

import (
	"fmt"
	"net/http"
	"os"
	"runtime/pprof"
)

// StartCPUProfile starts a CPU profile into the file named by the
// environment variable env, if it is set; stop ends it. Without the
// variable both do nothing.
func StartCPUProfile(env string) (stop func(), err error) {
	path := os.Getenv(env)
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// CollectGarbage has the emulator behind the control endpoint at addr
// (`benchscan serve -control-file`) collect its garbage; nothing when
// addr is empty.
func CollectGarbage(addr string) error {
	if addr == "" {
		return nil
	}
	resp, err := http.Get("http://" + addr + "/gc")
	if err != nil {
		return fmt.Errorf("collecting the emulator's garbage: %w", err)
	}
	return resp.Body.Close()
}
