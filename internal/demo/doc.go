// Package demo holds btviz's scenarios: one table per row-key pattern of
// the Bigtable schema-design guide, as pure, deterministic row generators.
// A generator yields keys and cells (family, qualifier, timestamp, value
// size), never values, and does no I/O: package emulator materializes
// values of those sizes and loads the tables into an emulator, and tests
// build a [keyspace.Snapshot] from the same rows with
// [Scenario.Snapshot], so that the demo and the diagnostics' tests look
// at the same data.
//
// [Scenarios] are the demo tables `btviz seed` loads, with seeded random
// numbers and cell timestamps before the fixed [DemoNow]. All twenty-three
// hold 444,004 rows and take about 600 MB of emulator heap once loaded,
// 160 MB of it the oversized row and cell:
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
//	users-no-delimiter          20,000  no    unpadded-number, sequential-numeric-id at user, sequential-keys
//	users-hashed-no-delimiter   20,000  no    hashed-key
//	accounts-hot-tenth          20,000  no    hot-key-range at acct#3
//	two-datasets                20,000  yes
//	newcomer-app                24,001  no    key-starts-with-timestamp, sequential-keys at its <epoch millis>#sensor keys
//
// [TestTables] are tables only tests build (a 100,000-column row, keys
// past 4 KB, a skewed tablet map, the demo's data under : and |
// delimiters), and [UnpaddedSequentialTable] a sequential table of any
// size. Each scenario's constructor documents its key format, sizes and
// time window. The package is for demos and tests: nothing on a path to a real
// Bigtable instance needs it.
package demo
