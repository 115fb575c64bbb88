package connect

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzParseCbtrc: any .cbtrc either fails with an error that names the
// file and line, or gives settings without surrounding spaces that,
// written back as `key = value` lines, read back the same.
func FuzzParseCbtrc(f *testing.F) {
	for _, seed := range []string{
		"project = p\ninstance = i\n",
		"# comment\n\n  project=my-project  \ncreds = /k.json\napp-profile = batch\ndata-endpoint = localhost:1\nadmin-endpoint = a:2\nauth-token = x\n",
		"project p",
		"=\n= =\nproject = a = b\n",
		"project = \x1b]0;x\x07\r\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rc, err := parseCbtrc("/home/u/.cbtrc", strings.NewReader(text))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "/home/u/.cbtrc:") && !strings.HasPrefix(err.Error(), "reading /home/u/.cbtrc") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		values := map[string]string{"project": rc.Project, "instance": rc.Instance, "creds": rc.Creds,
			"app-profile": rc.AppProfile, "data-endpoint": rc.DataEndpoint, "admin-endpoint": rc.AdminEndpoint}
		var back strings.Builder
		for key, value := range values {
			if value != strings.TrimSpace(value) || strings.ContainsAny(value, "\n") {
				t.Fatalf("%s = %q keeps surrounding space or a line break", key, value)
			}
			if value != "" {
				fmt.Fprintf(&back, "%s = %s\n", key, value)
			}
		}
		again, err := parseCbtrc("/home/u/.cbtrc", strings.NewReader(back.String()))
		if err != nil || again != rc {
			t.Fatalf("%+v written back as %q reads %+v, %v", rc, back.String(), again, err)
		}
	})
}
