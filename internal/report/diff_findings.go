package report

import (
	"slices"
	"strings"

	"github.com/btviz/btviz/internal/diagnose"
	"github.com/btviz/btviz/internal/escape"
)

// diffFindings matches the findings of two snapshots by kind and prefix
// and sorts them into appeared, disappeared, changed and unchanged. Where
// several findings share a kind and prefix, those with the same evidence
// names pair first, then the rest in order. Scan notes are left out:
// they describe the scans, which the diff's notes compare.
func diffFindings(before, after []diagnose.Finding) FindingsDiffDoc {
	doc := FindingsDiffDoc{Appeared: []FindingDoc{}, Disappeared: []FindingDoc{}, Changed: []FindingChangeDoc{}, Unchanged: []FindingRefDoc{}}
	before, after = withoutNotes(before), withoutNotes(after)
	pairedAfter := make([]bool, len(after))
	match := make([]int, len(before))
	for i := range match {
		match[i] = -1
	}
	for _, sameEvidence := range []bool{true, false} {
		for i, b := range before {
			if match[i] >= 0 {
				continue
			}
			for j, a := range after {
				if !pairedAfter[j] && a.Kind == b.Kind && a.Prefix == b.Prefix && (!sameEvidence || evidenceNames(a) == evidenceNames(b)) {
					match[i], pairedAfter[j] = j, true
					break
				}
			}
		}
	}
	for i, b := range before {
		if match[i] < 0 {
			doc.Disappeared = append(doc.Disappeared, findingDoc(b))
			continue
		}
		a := after[match[i]]
		if change, changed := findingChange(b, a); changed {
			doc.Changed = append(doc.Changed, change)
		} else {
			doc.Unchanged = append(doc.Unchanged, FindingRefDoc{Kind: string(a.Kind), Prefix: a.Prefix, Severity: a.Severity.String()})
		}
	}
	for j, a := range after {
		if !pairedAfter[j] {
			doc.Appeared = append(doc.Appeared, findingDoc(a))
		}
	}
	return doc
}

func withoutNotes(findings []diagnose.Finding) []diagnose.Finding {
	return slices.DeleteFunc(slices.Clone(findings), func(f diagnose.Finding) bool { return f.Kind == diagnose.KindScanNote })
}

// evidenceNames is a finding's evidence names joined, a signature that
// tells apart findings of one kind and prefix about different things.
func evidenceNames(f diagnose.Finding) string { return strings.Join(f.Evidence.Names(), ",") }

// findingChange compares a matched pair: severity and every evidence
// value; changed is false when they are alike.
func findingChange(before, after diagnose.Finding) (FindingChangeDoc, bool) {
	change := FindingChangeDoc{
		Kind: string(after.Kind), Prefix: after.Prefix, Start: after.Start, End: after.End,
		SeverityBefore: before.Severity.String(), SeverityAfter: after.Severity.String(),
		SummaryBefore: escape.Text(before.Summary), SummaryAfter: escape.Text(after.Summary),
		Evidence: []EvidenceDiffDoc{},
	}
	names := append(before.Evidence.Names(), after.Evidence.Names()...)
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		b, inBefore := before.Evidence[name]
		a, inAfter := after.Evidence[name]
		if inBefore == inAfter && a == b {
			continue
		}
		e := EvidenceDiffDoc{Name: name}
		if inBefore {
			e.Before = &b
		}
		if inAfter {
			e.After = &a
		}
		change.Evidence = append(change.Evidence, e)
	}
	return change, before.Severity != after.Severity || len(change.Evidence) > 0
}
