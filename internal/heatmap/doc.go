// Package heatmap turns a [keyspace.Snapshot] into the picture btviz
// exists to show: a [Matrix] of key buckets (rows) against write time or
// a single metric column, with the metrics, scales, time axis and bucket
// labels that describe it. It is the model only: package render draws a
// matrix in a terminal or as an image.
//
// Everything here is a pure function of its inputs: no terminal, font,
// clock or I/O (docs/ARCHITECTURE.md lists what it must not import). The
// view calls [Build] for what it shows; the renderers read the matrix.
//
// The classic patterns read at a glance: sequential keys draw a diagonal
// (each key range is written in its own time slice), a hot key range a
// bright horizontal band, an oversized row one bright row under
// [MetricMaxRow] or [MetricBytes].
//
// Key buckets come from four [Bucketing] modes: one row per child prefix
// ([BucketPrefix]), rows of about equal row counts as Key Visualizer draws
// them ([BucketEven]), hot ranges kept apart while cold runs merge as
// TiDB's Key Visualizer does ([BucketHeat]), and one row per tablet
// ([BucketTablets]).
//
// Each bucket is labelled by the start of its range as a key
// ([Bucket.Label]): the prefix it is exactly, or as much of its first key
// as sets it apart from the bucket above, to the end of that key segment,
// with the part the whole view shares written "…" ([Bucket.ShortLabel]).
// Labels increase from the top down by construction, and stay in order
// when they are cut to a gutter's width ([Matrix.FitLabels]).
package heatmap
