// Package emulator runs an in-process Bigtable emulator and loads demo
// tables into any emulator.
//
// [Start] serves bttest, the emulator behind cbtemulator and
// `gcloud beta emulators bigtable`, on a loopback gRPC port with 256 MiB
// message limits; the rest of btviz reaches it over gRPC exactly like a
// remote emulator. [Dial] connects the official Go client to any emulator
// without credentials.
//
// [Scenarios] are the row-key patterns of the Bigtable schema-design guide,
// one table each, with deterministic data (seeded random numbers, cell
// timestamps before the fixed [DemoNow]); [Seed] loads them through the
// official client. All eighteen hold 340,003 rows and about 550 MB of
// emulator heap, 160 MB of it the oversized row and cell:
//
//	name                        rows    good  expected findings
//	timeseries-reversed-ts      20,000  yes
//	timeseries-timestamp-first  20,000  no    key-starts-with-timestamp, sequential-keys
//	users-sequential-ids        20,000  no    sequential-numeric-id, sequential-keys
//	users-reversed-ids          20,000  yes
//	social-celebrity            20,000  no    hot-key-range at user#mila_rosewood#
//	social-celebrity-salted     20,000  yes
//	phone-device-day            20,000  yes
//	multitenant-devices         20,000  yes
//	bus-locations               20,000  yes
//	web-domains-forward         20,000  no    domain-not-reversed
//	web-domains-reversed        20,000  yes
//	large-row-and-cell          10,002  no    large-row, large-cell
//	memusage-single-row         20,001  no    frequently-updated-row at 4c410523#memusage
//	unpadded-user-ids           20,000  no    unpadded-number
//	hashed-order-keys           20,000  no    hashed-key
//	binary-sensor-keys          20,000  no    binary-key
//	pii-login-keys              20,000  no    pii-in-key
//	too-many-families           10,000  no    too-many-column-families
//
// Each scenario's constructor documents its key format, sizes and time
// window. The package is for demos and tests: nothing on a path to a real
// Bigtable instance needs it.
package emulator
