package diagnose

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/keytime"
)

// TransformKind names a what-if key transform.
type TransformKind string

// The what-if key transforms.
const (
	// TransformSalt prefixes hash(key) mod N and a delimiter.
	TransformSalt TransformKind = "salt"
	// TransformReverseTimestamp replaces a timestamp segment by
	// Long.MAX_VALUE minus it, zero-padded to 19 digits.
	TransformReverseTimestamp TransformKind = "reverse-ts"
	// TransformReverse reverses a segment: the labels of a host name
	// (maps.google.com becomes com.google.maps), the characters of
	// anything else (10400123 becomes 32100401).
	TransformReverse TransformKind = "reverse"
	// TransformPromote moves a segment to the front of the key.
	TransformPromote TransformKind = "promote"
)

// TransformForms lists the what-if forms [ParseTransform] accepts, as its
// errors and the command's help show them.
const TransformForms = "salt(N), salt(N, prefix=K), reverse-ts(SEGMENT), reverse(SEGMENT), promote(SEGMENT) " +
	"(N: 2 to 4096 buckets; K: hash the first K segments; SEGMENT counts from 0, negative from the end: -1 is the last; " +
	"reverse turns a host name's labels around and any other segment's characters)"

// Limits of the transform arguments.
const (
	minSaltBuckets = 2
	maxSaltBuckets = 4096
	maxSegmentArg  = 64
)

// ErrTransform is wrapped by every [ParseTransform] error, so that a
// command can tell a bad what-if from other failures.
var ErrTransform = errors.New("bad what-if transform")

// Transform is one parsed what-if key transform: see [ParseTransform].
type Transform struct {
	Kind TransformKind
	// Buckets is N of salt(N).
	Buckets int
	// PrefixSegments is K of salt(N, prefix=K): the salt hashes only the
	// key's first K segments, keeping each entity's rows in one bucket.
	// 0 hashes the whole key.
	PrefixSegments int
	// Segment is the segment reverse-ts, reverse and promote work on,
	// from 0; negative counts from the end.
	Segment int
}

// String writes the transform in the form [ParseTransform] reads.
func (t Transform) String() string {
	switch t.Kind {
	case TransformSalt:
		if t.PrefixSegments > 0 {
			return fmt.Sprintf("salt(%d, prefix=%d)", t.Buckets, t.PrefixSegments)
		}
		return fmt.Sprintf("salt(%d)", t.Buckets)
	case TransformReverseTimestamp, TransformReverse, TransformPromote:
		return fmt.Sprintf("%s(%d)", t.Kind, t.Segment)
	}
	return fmt.Sprintf("transform(%q)", string(t.Kind))
}

// ParseTransform reads a what-if transform: salt(N), salt(N, prefix=K),
// reverse-ts(SEGMENT), reverse(SEGMENT) or promote(SEGMENT) (see
// [TransformForms]). Spaces around names and arguments are ignored. Its
// errors wrap [ErrTransform] and show the accepted forms.
func ParseTransform(text string) (Transform, error) {
	fail := func(format string, args ...any) (Transform, error) {
		return Transform{}, fmt.Errorf("%w %q: %s; accepted forms: %s", ErrTransform, text, fmt.Sprintf(format, args...), TransformForms)
	}
	spec := strings.TrimSpace(text)
	open := strings.IndexByte(spec, '(')
	if open < 0 || !strings.HasSuffix(spec, ")") {
		return fail("want NAME(ARGUMENTS)")
	}
	name := TransformKind(strings.ToLower(strings.TrimSpace(spec[:open])))
	var args []string
	if inner := strings.TrimSpace(spec[open+1 : len(spec)-1]); inner != "" {
		args = strings.Split(inner, ",")
	}
	for i := range args {
		args[i] = strings.TrimSpace(args[i])
	}
	switch name {
	case TransformSalt:
		if len(args) < 1 || len(args) > 2 {
			return fail("salt takes N and optionally prefix=K")
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < minSaltBuckets || n > maxSaltBuckets {
			return fail("N must be a whole number from %d to %d, not %q", minSaltBuckets, maxSaltBuckets, args[0])
		}
		t := Transform{Kind: TransformSalt, Buckets: n}
		if len(args) == 2 {
			name, value, ok := strings.Cut(args[1], "=")
			k, err := strconv.Atoi(strings.TrimSpace(value))
			if !ok || strings.TrimSpace(name) != "prefix" || err != nil || k < 1 || k > maxSegmentArg {
				return fail("the second argument must be prefix=K with K from 1 to %d, not %q", maxSegmentArg, args[1])
			}
			t.PrefixSegments = k
		}
		return t, nil
	case TransformReverseTimestamp, TransformReverse, TransformPromote:
		if len(args) != 1 {
			return fail("%s takes one SEGMENT", name)
		}
		i, err := strconv.Atoi(args[0])
		if err != nil || i < -maxSegmentArg || i >= maxSegmentArg {
			return fail("SEGMENT must be a whole number from %d to %d, not %q", -maxSegmentArg, maxSegmentArg-1, args[0])
		}
		return Transform{Kind: name, Segment: i}, nil
	}
	return fail("unknown transform %q", string(name))
}

// rekeyer applies a [Transform] to keys split by the snapshot's
// delimiters.
type rekeyer struct {
	t        Transform
	splitter keyspace.Splitter
	// delimiter joins a salt to the key and promoted segments to the rest.
	delimiter byte
}

// defaultDelimiter joins salts and promoted segments when the keys have
// no delimiter of their own.
const defaultDelimiter = '#'

func newRekeyer(t Transform, delimiters string) rekeyer {
	delimiter := byte(defaultDelimiter)
	if delimiters != "" {
		delimiter = delimiters[0]
	}
	return rekeyer{t: t, splitter: keyspace.NewSplitter(delimiters), delimiter: delimiter}
}

// apply returns the re-keyed key and whether the transform changed it (a
// key without the segment the transform names stays as it is).
func (r rekeyer) apply(key string) (string, bool) {
	switch r.t.Kind {
	case TransformSalt:
		hashed := key
		if r.t.PrefixSegments > 0 {
			hashed = r.prefixOf(key, r.t.PrefixSegments)
		}
		h := fnv.New32a()
		h.Write([]byte(hashed))
		width := len(strconv.Itoa(r.t.Buckets - 1))
		return fmt.Sprintf("%0*d%c%s", width, h.Sum32()%uint32(r.t.Buckets), r.delimiter, key), true
	case TransformReverseTimestamp, TransformReverse, TransformPromote:
		return r.applySegment(key)
	}
	return key, false
}

// prefixOf returns the first k segments of key (all of it when shorter).
func (r rekeyer) prefixOf(key string, k int) string {
	from := 0
	for ; k > 0 && from < len(key); k-- {
		from += r.splitter.Next(key, from)
	}
	return key[:from]
}

// applySegment rewrites or moves one segment. Delimiters keep their
// positions, so promote(2) turns a#b#c into c#a#b and a|b:c into c|a:b.
func (r rekeyer) applySegment(key string) (string, bool) {
	fields, separators := r.split(key)
	i := r.t.Segment
	if i < 0 {
		i += len(fields)
	}
	if i < 0 || i >= len(fields) {
		return key, false
	}
	switch r.t.Kind {
	case TransformReverseTimestamp:
		reversed, ok := reverseTimestamp(fields[i])
		if !ok {
			return key, false
		}
		fields[i] = reversed
	case TransformReverse:
		fields[i] = reverseField(fields[i])
	case TransformPromote:
		promoted := fields[i]
		copy(fields[1:i+1], fields[:i])
		fields[0] = promoted
	}
	var b strings.Builder
	for k := range fields {
		b.WriteString(fields[k])
		b.WriteString(separators[k])
	}
	out := b.String()
	return out, out != key
}

// reverseField reverses a host name label by label and anything else
// character by character (byte by byte, for keys need not be UTF-8).
func reverseField(field string) string {
	if hostOrientation(field) != hostNone {
		labels := strings.Split(field, ".")
		slices.Reverse(labels)
		return strings.Join(labels, ".")
	}
	b := []byte(field)
	slices.Reverse(b)
	return string(b)
}

// split cuts key into its fields and the delimiter after each ("" after a
// last field that ends the key).
func (r rekeyer) split(key string) (fields, separators []string) {
	for _, segment := range r.splitter.Segments(key) {
		n := len(segment)
		if strings.IndexByte(r.splitter.Delimiters(), segment[n-1]) >= 0 {
			fields, separators = append(fields, segment[:n-1]), append(separators, segment[n-1:])
			continue
		}
		fields, separators = append(fields, segment), append(separators, "")
	}
	return fields, separators
}

// reverseTimestamp returns Long.MAX_VALUE minus a timestamp field (epoch
// digits, or a date converted to epoch milliseconds), zero-padded to 19
// digits so that it sorts correctly.
func reverseTimestamp(field string) (string, bool) {
	var value int64
	switch {
	case keytime.IsCompactDate(field):
		t, err := time.Parse("20060102150405"[:len(field)], field)
		if err != nil {
			return "", false
		}
		value = t.UnixMilli()
	case keytime.Digits(field) && len(field) <= 19:
		v, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return "", false
		}
		value = v
	case keytime.IsFormattedDate(field):
		t, err := time.Parse(time.RFC3339Nano, field)
		if err != nil {
			if t, err = time.Parse("2006-01-02", field[:10]); err != nil {
				return "", false
			}
		}
		value = t.UnixMilli()
	default:
		return "", false
	}
	if value < 0 {
		return "", false
	}
	return fmt.Sprintf("%019d", int64(math.MaxInt64)-value), true
}
