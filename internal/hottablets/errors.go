package hottablets

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// Permission is the IAM permission ListHotTablets needs on the instance
// (its REST reference names it), and PermissionRole a predefined role
// that grants it: Google's hot-tablets guide names the Bigtable Viewer
// role; Bigtable Administrator has every Bigtable permission.
const (
	Permission     = "bigtable.clusters.listHotTablets"
	PermissionRole = "roles/bigtable.viewer"
)

// adminService is the API a project must have enabled for hot tablets.
const adminService = "bigtableadmin.googleapis.com"

// ErrPermission, ErrNotEnabled and ErrNotImplemented are wrapped by the
// errors of a fetch that was refused for want of the IAM permission,
// because the project has not enabled the admin API, or because the
// server (an emulator) does not implement it.
var (
	ErrPermission     = errors.New("permission denied")
	ErrNotEnabled     = errors.New("the Cloud Bigtable Admin API is not enabled")
	ErrNotImplemented = errors.New("the instance admin API is not implemented")
)

// explain turns an RPC error into a message that names what was asked of
// which instance and says what to do.
func (c *Client) explain(err error, doing string) error {
	t := c.target
	code := status.Code(err)
	if errors.Is(err, context.DeadlineExceeded) {
		code = codes.DeadlineExceeded
	}
	msg := status.Convert(err).Message()
	switch {
	case code == codes.Canceled || errors.Is(err, context.Canceled):
		return err
	case code == codes.PermissionDenied && serviceDisabled(err):
		return fmt.Errorf("%s of %s: %w in project %s; enable it with `gcloud services enable %s --project %s` (or in the console's API library), wait a minute, and try again: %s",
			doing, t.Where(), ErrNotEnabled, escape.Quote(t.Project), adminService, escape.Text(t.Project), escape.Text(msg))
	case code == codes.PermissionDenied:
		return fmt.Errorf("%s of %s: %w; it needs the IAM permission %s on the instance, which the role %s grants (as does roles/bigtable.admin): "+
			"ask for it, e.g. `gcloud bigtable instances add-iam-policy-binding %s --project %s --member user:YOU --role %s`: %s",
			doing, t.Where(), ErrPermission, Permission, PermissionRole, escape.Text(t.Instance), escape.Text(t.Project), PermissionRole, escape.Text(msg))
	case code == codes.Unauthenticated:
		return fmt.Errorf("%s of %s: not signed in: run `gcloud auth application-default login` (or set `creds` in ~/.cbtrc): %s", doing, t.Where(), escape.Text(msg))
	case code == codes.Unimplemented && t.IsEmulator():
		return fmt.Errorf("%s of %s: %w by the emulator: only Cloud Bigtable has hot tablets. `btviz --emulator --traffic WORKLOAD` shows simulated ones; "+
			"against an instance, give --project and --instance", doing, t.Where(), ErrNotImplemented)
	case code == codes.Unimplemented:
		return fmt.Errorf("%s of %s: %w at %s: %s", doing, t.Where(), ErrNotImplemented, firstNonEmpty(t.AdminEndpoint, adminEndpoint), escape.Text(msg))
	case code == codes.NotFound:
		return fmt.Errorf("%s of %s: not found; check --project, --instance and --cluster: %s", doing, t.Where(), escape.Text(msg))
	case code == codes.InvalidArgument && strings.Contains(strings.ToLower(msg), "time"):
		return fmt.Errorf("%s of %s: %w: the server refused the time window (it answers 48 hours a request within the last 14 days): %s", doing, t.Where(), ErrWindow, escape.Text(msg))
	case code == codes.Unavailable || code == codes.DeadlineExceeded:
		if t.IsEmulator() {
			return fmt.Errorf("%s of %s: the emulator does not answer; is it running? %s", doing, t.Where(), escape.Text(msg))
		}
		return fmt.Errorf("%s of %s: the admin API does not answer; check the network and try again: %s", doing, t.Where(), escape.Text(msg))
	}
	return fmt.Errorf("%s of %s: %s: %s", doing, t.Where(), code, escape.Text(msg))
}

// serviceDisabled reports whether a PermissionDenied error says that the
// project has not enabled the API (Google's ErrorInfo reason
// SERVICE_DISABLED, or its message).
func serviceDisabled(err error) bool {
	st := status.Convert(err)
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetReason() == "SERVICE_DISABLED" {
			return true
		}
	}
	msg := st.Message()
	return strings.Contains(msg, "has not been used in project") || strings.Contains(msg, "it is disabled")
}

// NoneError is the message for a fetch that found no hot tablet: which
// table (or instance), which clusters, which window, and what that
// means. It is not an error of the fetch, but a view of hot tablets has
// nothing to draw.
func NoneError(h *keyspace.HotTablets, table string) error {
	what := "instance " + escape.Quote(h.Instance)
	if table != "" {
		what = "table " + escape.Quote(table)
	}
	return fmt.Errorf("no hot tablets of %s on cluster %s from %s to %s: ListHotTablets lists only tablets that used a large share of a node's CPU, "+
		"and none did in that window; try a longer one (up to 14d) or a busier time",
		what, strings.Join(h.Clusters, ", "), h.From.UTC().Format("2006-01-02 15:04Z"), h.To.UTC().Format("2006-01-02 15:04Z"))
}

// formatWindow writes a window as a user gave it, exactly: "20d" for
// whole days, else Go's form without its zero tail ("336h1m", not the
// "14d" a rounded form would echo back for a window just over 14 days).
func formatWindow(w time.Duration) string {
	if w%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", w/(24*time.Hour))
	}
	text := w.String()
	if strings.HasSuffix(text, "m0s") {
		text = strings.TrimSuffix(text, "0s")
	}
	if strings.HasSuffix(text, "h0m") {
		text = strings.TrimSuffix(text, "0m")
	}
	return text
}
