// Package hottablets reads Cloud Bigtable's hot tablets: the instance
// admin API's ListHotTablets (google.bigtable.admin.v2.BigtableInstanceAdmin),
// per cluster, in one-minute samples of the share of a node's CPU each
// hot tablet used. It lists the instance's clusters (ListClusters), asks
// each for a window of up to 14 days in requests of at most 48 hours,
// reads every page, and converts what it gets to [keyspace.HotTablets].
// It also simulates hot tablets from a traffic recording for the demo
// ([Simulate]). It draws nothing and holds no terminal: the commands and
// the interactive view call it.
//
// On a real instance the calls go to bigtableadmin.googleapis.com with
// Application Default Credentials, as scans do; against an emulator
// (BIGTABLE_EMULATOR_HOST) they go to the emulator's address, as the
// official clients send instance admin calls there. The emulator does not
// implement the instance admin API, so there they fail with a message
// that says so, unless a server in front of it answers them (the tests
// put one there).
package hottablets

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/api/option"
	gtransport "google.golang.org/api/transport/grpc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/btviz/btviz/internal/connect"
	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/keyspace"
)

// The API's limits on a request's time window.
const (
	// MaxWindow is how far back ListHotTablets answers: 14 days.
	MaxWindow = 14 * 24 * time.Hour
	// RequestWindow is the longest window one request may ask for: 48
	// hours; a longer window is asked in several.
	RequestWindow = 48 * time.Hour
	// DefaultWindow is the window asked when none is given: the last 24
	// hours, the API's own default.
	DefaultWindow = 24 * time.Hour
	// minWindow is the shortest window worth asking: a minute, the
	// samples' resolution.
	minWindow = time.Minute
	// windowMargin keeps the oldest request inside the 14 days the server
	// counts from its own clock, which has moved on by the time the
	// request arrives.
	windowMargin = time.Minute
)

// adminEndpoint is Cloud Bigtable's instance admin API.
const adminEndpoint = "bigtableadmin.googleapis.com:443"

// Client lists hot tablets of one instance.
type Client struct {
	target connect.Target
	conn   grpc.ClientConnInterface
	admin  adminpb.BigtableInstanceAdminClient
	close  func() error
}

// Dial connects to the instance admin API of t: to t.EmulatorHost without
// credentials for an emulator, as the official clients do, otherwise to
// Cloud Bigtable with t.Creds or Application Default Credentials. It only
// dials; the first call shows whether the target answers.
func Dial(ctx context.Context, t connect.Target) (*Client, error) {
	if t.IsEmulator() {
		conn, err := grpc.NewClient("passthrough:///"+t.EmulatorHost, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return nil, fmt.Errorf("dialing the emulator at %s for hot tablets: %w", t.EmulatorHost, err)
		}
		return &Client{target: t, conn: conn, admin: adminpb.NewBigtableInstanceAdminClient(conn), close: conn.Close}, nil
	}
	opts := []option.ClientOption{
		option.WithEndpoint(firstNonEmpty(t.AdminEndpoint, adminEndpoint)),
		option.WithScopes(bigtable.InstanceAdminScope),
	}
	if t.Creds != "" {
		opts = append(opts, option.WithAuthCredentialsFile(option.ServiceAccount, t.Creds))
	}
	pool, err := gtransport.DialPool(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("connecting to the instance admin API of %s with Application Default Credentials: %w; run `gcloud auth application-default login` or set `creds` in ~/.cbtrc", t.Where(), err)
	}
	return &Client{target: t, conn: pool, admin: adminpb.NewBigtableInstanceAdminClient(pool), close: pool.Close}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.close() }

// Options say what [Client.Fetch] asks for.
type Options struct {
	// Window is how far back to ask, from now: 0 is [DefaultWindow]; at
	// most [MaxWindow].
	Window time.Duration
	// Cluster asks one cluster only; empty asks every cluster of the
	// instance.
	Cluster string
	// Table keeps one table's tablets only; empty keeps every table's.
	Table string
	// PageSize is how many tablets to ask per page (0: the server's
	// choice).
	PageSize int32
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// ErrWindow is returned (wrapped) for a window the API cannot answer.
var ErrWindow = errors.New("hot tablets window")

// CheckWindow returns the window to ask for, w or the default, or an error
// that says what the API allows.
func CheckWindow(w time.Duration) (time.Duration, error) {
	switch {
	case w == 0:
		return DefaultWindow, nil
	case w < minWindow:
		return 0, fmt.Errorf("%w: %s is shorter than a minute, the samples' resolution; give a window such as 1h, 24h or 14d", ErrWindow, w)
	case w > MaxWindow:
		return 0, fmt.Errorf("%w: %s reaches beyond the 14 days Cloud Bigtable keeps hot tablets for; give 14d or less (btviz asks in requests of 48h)", ErrWindow, formatWindow(w))
	}
	return w, nil
}

// maxPages bounds the pages of one request, so that a server that keeps
// answering with a next page cannot keep btviz asking forever.
const maxPages = 10000

// Fetch lists the hot tablets of the last opts.Window on every cluster of
// the instance (or opts.Cluster): each cluster is asked in requests of at
// most [RequestWindow], newest first, every page read. Samples are
// converted to [keyspace.HotTablets] (table IDs, keys as bytes, times,
// node CPU percent) and sorted the highest CPU first; a sample two
// requests both returned (one starting at their common bound) is kept
// once. An instance with no hot tablet in the window gives an empty list,
// not an error: [NoneError] says so for a message.
func (c *Client) Fetch(ctx context.Context, opts Options) (*keyspace.HotTablets, error) {
	window, err := CheckWindow(opts.Window)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	to := now().UTC().Truncate(time.Second)
	from := to.Add(-window)
	if oldest := to.Add(-MaxWindow + windowMargin); from.Before(oldest) {
		from = oldest
	}
	clusters, err := c.clusters(ctx, opts.Cluster)
	if err != nil {
		return nil, err
	}
	seen := map[sampleKey]bool{}
	var tablets []keyspace.HotTablet
	for _, cluster := range clusters {
		for end := to; end.After(from); end = end.Add(-RequestWindow) {
			start := end.Add(-RequestWindow)
			if start.Before(from) {
				start = from
			}
			got, err := c.list(ctx, cluster, start, end, opts)
			if err != nil {
				return nil, err
			}
			for _, t := range got {
				k := sampleKey{t.Cluster, t.Table, string(t.StartKey), string(t.EndKey), t.Start.UnixNano()}
				if !seen[k] {
					seen[k] = true
					tablets = append(tablets, t)
				}
			}
		}
	}
	return keyspace.NewHotTablets(keyspace.HotTablets{
		Source: keyspace.HotTabletsBigtable, Project: c.target.Project, Instance: c.target.Instance,
		Clusters: clusters, From: from, To: to, Tablets: tablets,
	}), nil
}

// sampleKey tells samples apart.
type sampleKey struct {
	cluster, table, start, end string
	at                         int64
}

// instanceName is the resource name of the instance.
func (c *Client) instanceName() string {
	return "projects/" + c.target.Project + "/instances/" + c.target.Instance
}

// clusters returns the IDs of the instance's clusters, sorted, or only
// want when it is one of them.
func (c *Client) clusters(ctx context.Context, want string) ([]string, error) {
	resp, err := c.admin.ListClusters(ctx, &adminpb.ListClustersRequest{Parent: c.instanceName()})
	if err != nil {
		return nil, c.explain(err, "listing the clusters")
	}
	var ids []string
	for _, cl := range resp.GetClusters() {
		ids = append(ids, lastSegment(cl.GetName()))
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("listing hot tablets of %s: the instance has no clusters%s", c.target.Where(), failedLocations(resp.GetFailedLocations()))
	}
	if want == "" {
		return ids, nil
	}
	for _, id := range ids {
		if id == want {
			return []string{want}, nil
		}
	}
	return nil, fmt.Errorf("listing hot tablets: %s has no cluster %s; its clusters are %s%s",
		c.target.Where(), escape.Quote(want), strings.Join(ids, ", "), failedLocations(resp.GetFailedLocations()))
}

// failedLocations notes the locations ListClusters could not reach.
func failedLocations(locations []string) string {
	if len(locations) == 0 {
		return ""
	}
	return " (the API could not reach " + escape.Text(strings.Join(locations, ", ")) + ": clusters there may be missing)"
}

// list asks one cluster for the hot tablets of [start, end), every page.
func (c *Client) list(ctx context.Context, cluster string, start, end time.Time, opts Options) ([]keyspace.HotTablet, error) {
	parent := c.instanceName() + "/clusters/" + cluster
	req := &adminpb.ListHotTabletsRequest{Parent: parent, StartTime: timestamppb.New(start), EndTime: timestamppb.New(end), PageSize: opts.PageSize}
	var out []keyspace.HotTablet
	tokens := map[string]bool{}
	for page := 0; ; page++ {
		if page == maxPages {
			return nil, fmt.Errorf("listing hot tablets of cluster %s: more than %d pages for %s to %s; ask a shorter window", escape.Quote(cluster), maxPages, start.Format(time.RFC3339), end.Format(time.RFC3339))
		}
		doing := fmt.Sprintf("listing hot tablets of cluster %s from %s to %s", escape.Quote(cluster), start.Format(time.RFC3339), end.Format(time.RFC3339))
		var answer []byte
		if err := c.conn.Invoke(ctx, adminpb.BigtableInstanceAdmin_ListHotTablets_FullMethodName, req, &answer, grpc.ForceCodec(rawCodec{})); err != nil {
			return nil, c.explain(err, doing)
		}
		tablets, next, err := decodeHotTablets(answer)
		if err != nil {
			return nil, fmt.Errorf("%s of %s: %w", doing, c.target.Where(), err)
		}
		for _, t := range tablets {
			table := lastSegment(t.tableName)
			if opts.Table != "" && table != opts.Table {
				continue
			}
			cpu := float64(t.cpu)
			if math.IsNaN(cpu) {
				cpu = 0
			}
			out = append(out, keyspace.HotTablet{
				Cluster: cluster, Table: table,
				StartKey: keyspace.Key(t.startKey), EndKey: keyspace.Key(t.endKey),
				Start: t.start, End: t.end,
				CPU: min(max(cpu, 0), 100),
			})
		}
		if next == "" {
			return out, nil
		}
		if tokens[next] {
			return nil, fmt.Errorf("listing hot tablets of cluster %s: the server gave the same page token twice; try again", escape.Quote(cluster))
		}
		tokens[next] = true
		req.PageToken = next
	}
}

// lastSegment returns the last element of a resource name: the ID.
func lastSegment(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
