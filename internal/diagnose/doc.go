// Package diagnose names the row-key and schema problems that Google's
// Bigtable schema-design guidance warns about, from a [keyspace.Snapshot]
// alone: it is pure, prints nothing and does no I/O.
//
// [Diagnose] (or [Run], which returns the [Datasets] too) returns
// [Finding] values, one per problem, each with a
// [Kind] (the stable names of the README's "Findings"), a [Severity], the key range it
// points at, a one-line summary with the numbers, advice, and an
// [Evidence] map of the numbers a reviewer can check. Severities follow
// one rule: [SeverityError] only for what is past a hard Bigtable limit
// (a row over 256 MB, a key over 4 KB), [SeverityWarning] for what goes
// against the guidance, [SeverityInfo] for notes about what the snapshot
// can and cannot show. A design the guide recommends raises no warning or
// error.
//
// [RunWhatIf] re-keys the snapshot's row sample with a [Transform] (salting,
// reversed timestamps, reversed segments, field promotion), rebuilds a
// snapshot from it and diagnoses that, so a user can compare the key
// distribution and findings before and after a migration, and what it
// costs readers ([WhatIf]).
//
// A table usually holds several datasets side by side; [Datasets] finds
// them by their keys' top-level form (datasets.go, datasetforms.go), and
// a table of several is diagnosed dataset by dataset: the key-form and
// hotspot checks ([datasetChecks]) run on each dataset's sampled rows,
// with its own delimiters, and name its range and [Finding.Dataset]; the
// checks of rows, the schema, tablets and traffic ([tableChecks]) run
// once. Key analysis looks at every field position of a dataset's sampled
// keys ([keyspace.Splitter]), so that tenant|user|ts and a:b:c keys are
// read as well as user#id keys. A field is a segment between delimiters,
// or a part of one where the sample's values consistently glue a word to
// a number (user123, greeting42, sensor7reading: parts.go). A hotspot is
// traffic, never size: hot-key-range has two rules on recent writes —
// prefixes among many siblings of one dataset (hotspot.go) and key ranges
// at any fan-out whose writes far exceed their share of the dataset's
// rows, with bands of ranges hot only together at info (hotrange.go) —
// and every finding that advises salting one range advises the same
// number of buckets (saltadvice.go). Keys in summaries are always escaped
// by [keyspace.Printable].
package diagnose
