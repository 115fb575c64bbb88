package hottablets

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/testkit/emutest"
	"github.com/btviz/btviz/internal/testkit/hotadmin"
)

var testNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

const tablePrefix = "projects/local/instances/btviz/tables/"

// planted returns n samples of a tablet, one an hour back from testNow.
func planted(cluster, table, start, end string, n int, cpu float32, every time.Duration) []hotadmin.Tablet {
	var out []hotadmin.Tablet
	for i := range n {
		at := testNow.Add(-time.Duration(i+1) * every)
		out = append(out, hotadmin.Tablet{Cluster: cluster, HotTablet: &adminpb.HotTablet{
			TableName: tablePrefix + table, StartKey: start, EndKey: end,
			StartTime: timestamppb.New(at), EndTime: timestamppb.New(at.Add(time.Minute)), NodeCpuUsagePercent: cpu,
		}})
	}
	return out
}

// start starts an embedded emulator behind a hotadmin server and returns
// a client of the server's address, as btviz in emulator mode dials it.
func start(t *testing.T, opts hotadmin.Options) (*Client, *hotadmin.Server) {
	t.Helper()
	opts.Now = func() time.Time { return testNow }
	srv := hotadmin.Start(t, emutest.Start(t).Addr, opts)
	c, err := Dial(context.Background(), emutest.Target(srv.Addr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, srv
}

func TestFetchAsksEveryClusterInWindowsOf48HoursAndReadsEveryPage(t *testing.T) {
	var tablets []hotadmin.Tablet
	// A sample every 6 hours for 13 days on c1, a few on c2, and another
	// table's that the table filter leaves out.
	tablets = append(tablets, planted("c1", "events", "user#a", "user#b", 52, 75, 6*time.Hour)...)
	tablets = append(tablets, planted("c2", "events", "user#c", "user#c\x00", 7, 55, time.Hour)...)
	tablets = append(tablets, planted("c1", "other", "x", "y", 9, 90, time.Hour)...)
	c, srv := start(t, hotadmin.Options{Clusters: []string{"c1", "c2"}, Tablets: tablets})
	got, err := c.Fetch(context.Background(), Options{Window: MaxWindow, Table: "events", Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tablets) != 52+7 {
		t.Errorf("%d samples, want %d", len(got.Tablets), 52+7)
	}
	if got.Clusters[0] != "c1" || got.Clusters[1] != "c2" || got.Tablets[0].CPU != 75 || got.Tablets[0].Table != "events" {
		t.Errorf("clusters %v, first sample %+v", got.Clusters, got.Tablets[0])
	}
	windows := map[string]int{}
	for _, r := range srv.Requests() {
		if r.End.Sub(r.Start) > RequestWindow {
			t.Errorf("a request of %v", r.End.Sub(r.Start))
		}
		if r.PageToken == "" {
			windows[r.Cluster]++
		}
	}
	// 14 days less a minute in windows of 48 hours: 7 per cluster.
	if windows["c1"] != 7 || windows["c2"] != 7 {
		t.Errorf("windows asked: %v, want 7 per cluster", windows)
	}
	if pages := len(srv.Requests()); pages < 20 {
		t.Errorf("%d requests: the pages of 3 were not all read", pages)
	}
}

func TestFetchOneCluster(t *testing.T) {
	tablets := append(planted("c1", "events", "a", "b", 3, 60, time.Hour), planted("c2", "events", "c", "d", 3, 60, time.Hour)...)
	c, _ := start(t, hotadmin.Options{Clusters: []string{"c1", "c2"}, Tablets: tablets})
	got, err := c.Fetch(context.Background(), Options{Cluster: "c2", Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tablets) != 3 || got.Tablets[0].Cluster != "c2" || len(got.Clusters) != 1 {
		t.Errorf("cluster c2: %+v", got)
	}
	if _, err := c.Fetch(context.Background(), Options{Cluster: "c9"}); err == nil || !strings.Contains(err.Error(), "c1, c2") {
		t.Errorf("an unknown cluster: %v", err)
	}
}

func TestFetchErrorsSayWhatToDo(t *testing.T) {
	disabled, _ := status.New(codes.PermissionDenied, "Cloud Bigtable Admin API has not been used in project p before or it is disabled").
		WithDetails(&errdetails.ErrorInfo{Reason: "SERVICE_DISABLED", Domain: "googleapis.com"})
	for _, tc := range []struct {
		name string
		err  error
		want []string
		is   error
	}{
		{"permission", status.Error(codes.PermissionDenied, "denied"), []string{Permission, PermissionRole}, ErrPermission},
		{"not enabled", disabled.Err(), []string{"gcloud services enable bigtableadmin.googleapis.com"}, ErrNotEnabled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := start(t, hotadmin.Options{Clusters: []string{"c1"}, Err: tc.err})
			_, err := c.Fetch(context.Background(), Options{Now: func() time.Time { return testNow }})
			if !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want %v", err, tc.is)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
	for w, echo := range map[time.Duration]string{15 * 24 * time.Hour: "15d", 14*24*time.Hour + time.Minute: "336h1m", 14*24*time.Hour + 10*time.Minute: "336h10m", 337 * time.Hour: "337h"} {
		// The window is echoed as given, not rounded to a "14d" that
		// would be allowed.
		if _, err := CheckWindow(w); !errors.Is(err, ErrWindow) || !strings.Contains(err.Error(), "14 days") || !strings.HasPrefix(strings.TrimPrefix(err.Error(), ErrWindow.Error()+": "), echo+" ") {
			t.Errorf("a window of %v: %v, want it named %s", w, err, echo)
		}
	}
	// The emulator alone does not implement the instance admin API.
	c, err := Dial(context.Background(), connect.Target{Project: "local", Instance: "btviz", EmulatorHost: emutest.Start(t).Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Fetch(context.Background(), Options{}); !errors.Is(err, ErrNotImplemented) || !strings.Contains(err.Error(), "--traffic") {
		t.Errorf("the emulator alone: %v", err)
	}
}

func TestNoHotTabletsIsSaidSo(t *testing.T) {
	c, _ := start(t, hotadmin.Options{Clusters: []string{"c1"}})
	got, err := c.Fetch(context.Background(), Options{Table: "events", Now: func() time.Time { return testNow }})
	if err != nil || len(got.Tablets) != 0 {
		t.Fatalf("%v, %v", got, err)
	}
	if msg := NoneError(got, "events").Error(); !strings.Contains(msg, `no hot tablets of table "events" on cluster c1`) {
		t.Errorf("%q", msg)
	}
}

func TestParseWindow(t *testing.T) {
	for in, want := range map[string]time.Duration{"24h": 24 * time.Hour, "14d": MaxWindow, "90m": 90 * time.Minute, "1.5d": 36 * time.Hour} {
		if got, err := ParseWindow(in); err != nil || got != want {
			t.Errorf("ParseWindow(%q) = %v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "d", "-1h", "soon"} {
		if _, err := ParseWindow(bad); err == nil {
			t.Errorf("ParseWindow(%q) took it", bad)
		}
	}
}

// Row keys are bytes; the API's proto3 strings are not always UTF-8. A
// key with bytes outside UTF-8 comes through as it is.
func TestFetchReadsKeysThatAreNotUTF8(t *testing.T) {
	binary := "dev\x00\xff\x1b#42"
	c, _ := start(t, hotadmin.Options{Clusters: []string{"c1"}, Tablets: planted("c1", "events", binary, binary+"\x00", 2, 66, time.Hour)})
	got, err := c.Fetch(context.Background(), Options{Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Tablets) != 2 || string(got.Tablets[0].StartKey) != binary {
		t.Fatalf("%+v", got.Tablets)
	}
	if row, ok := got.Tablets[0].OneRow(); !ok || string(row) != binary {
		t.Errorf("a one-row tablet of a binary key: %q, %v", row, ok)
	}
	if first, second := got.Tablets[0].Start, got.Tablets[1].Start; !first.Equal(testNow.Add(-2*time.Hour)) || !second.Equal(testNow.Add(-time.Hour)) {
		t.Errorf("start times %v and %v, want an hour and two before %v, oldest first", first, second, testNow)
	}
}
