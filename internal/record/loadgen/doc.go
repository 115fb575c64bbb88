// Package loadgen generates demo traffic: built-in workloads that run
// through the official Go client against the demo tables of package
// emulator, so that `btviz --emulator` can show a live traffic heatmap
// without any application. Each workload plants one of the traffic
// patterns Key Visualizer is for:
//
//	read-hotspot            social-celebrity: most reads go to one user's rows
//	hot-counter             social-celebrity: every like increments one counter row
//	timestamp-first-writes  timeseries-timestamp-first: new rows keyed by time, all at the end
//	newcomer-app            newcomer-app: an app's sensors write time-first keys while its readers
//	                        hammer one user's items and the config row
//
// A workload is deterministic given its seed and the table's content (the
// keys it reads, the rows it writes and their order), paced at a fixed
// rate of calls per second, and runs until its context ends or it has
// made [Options.Limit] calls. Its writes carry times on a logical clock
// that starts at the demo data's end ([demo.DemoNow]) and advances
// one interval per call, so a run never depends on the wall clock.
package loadgen
