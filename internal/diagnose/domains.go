package diagnose

import (
	"strings"

	"github.com/btviz/btviz/internal/keyspace"
	"github.com/btviz/btviz/internal/units"
)

// hostDirection says which way a host name is written.
type hostDirection uint8

const (
	hostNone     hostDirection = iota
	hostForward                // maps.google.com: top-level label last
	hostReversed               // com.google.maps: top-level label first
)

// Thresholds of domain-not-reversed. The guide gives none.
const (
	// domainMinShare is the share of sampled keys that must hold a
	// forward host name: a table keyed by host has one in nearly every
	// key, while a stray file name or version string in a few keys is
	// not a design.
	domainMinShare = 0.2
	// domainForwardDominance is how many times more keys must hold a
	// forward host than a reversed one, so that a table that mixes both
	// (already being migrated) is not flagged for its old half.
	domainForwardDominance = 2.0
)

const domainAdvice = "Store host names reversed (com.google.maps instead of maps.google.com): " +
	"then every host of a site, and every site of a top-level domain, is one contiguous key range " +
	"that one prefix scan reads, and similar neighbouring keys compress better. " +
	"Check the distribution first: if a few sites dominate the table, reversing gathers their rows " +
	"and can create a hotspot; lead with a more even field in that case."

// genericTopLevel lists the generic top-level domains common in data;
// every two-letter country code in [countryTopLevel] counts as well.
const genericTopLevel = " com net org edu gov mil int info biz name pro mobi aero coop museum " +
	"io ai app dev cloud page blog shop store online site tech xyz top club news live web " +
	"media email tv me fm ly cc ws co "

// countryTopLevel lists the delegated two-letter country-code top-level
// domains.
const countryTopLevel = " ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj " +
	"bm bn bo br bs bt bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk " +
	"dm do dz ec ee eg er es et eu fi fj fk fm fo fr ga gd ge gf gg gh gi gl gm gn gp gq gr gs gt " +
	"gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr " +
	"kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu " +
	"mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw " +
	"py qa re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv sx sy sz tc td tf " +
	"tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us uy uz va vc ve vg vi vn vu wf ws ye yt za " +
	"zm zw "

// isTopLevel reports whether label is a top-level domain.
func isTopLevel(label string) bool {
	if label == "" || strings.ContainsAny(label, " ") {
		return false
	}
	label = strings.ToLower(label)
	needle := " " + label + " "
	return strings.Contains(genericTopLevel, needle) || strings.Contains(countryTopLevel, needle)
}

// hostOrientation says whether token is a host name written forward or
// reversed: at least two dot-separated labels of letters, digits and
// inner hyphens, at least one with a letter, a top-level label at exactly
// one end. A token with a top-level label at both ends (go.dev,
// de.wikipedia.org) or at neither is not counted either way.
func hostOrientation(token string) hostDirection {
	first, last, ok := hostLabels(token)
	if !ok {
		return hostNone
	}
	switch first, last := isTopLevel(first), isTopLevel(last); {
	case last && !first:
		return hostForward
	case first && !last:
		return hostReversed
	}
	return hostNone
}

// hostLabels reports whether token is written like a host name (two or
// more dot-separated labels of letters, digits and inner hyphens, at
// least one with a letter), and gives its first and last labels.
func hostLabels(token string) (first, last string, ok bool) {
	if strings.IndexByte(token, '.') < 0 {
		return "", "", false // most fields: no allocation, no labels
	}
	letters := false
	for label := range strings.SplitSeq(token, ".") {
		if !validLabel(label) {
			return "", "", false
		}
		if first == "" {
			first = label
		}
		last = label
		for i := 0; i < len(label) && !letters; i++ {
			letters = label[i]|0x20 >= 'a' && label[i]|0x20 <= 'z'
		}
	}
	return first, last, letters
}

// validLabel reports whether label is a host name's label: 1 to 63
// letters, digits and hyphens, not at either end.
func validLabel(label string) bool {
	if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return false
	}
	for i := 0; i < len(label); i++ {
		if c := label[i]; !isAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// hostTokens calls visit with every run of host characters in key that is
// not half of an e-mail address.
func hostTokens(key string, visit func(token string)) {
	for i := 0; i < len(key); {
		if !hostChar(key[i]) {
			i++
			continue
		}
		j := i
		for j < len(key) && hostChar(key[j]) {
			j++
		}
		if (i == 0 || key[i-1] != '@') && (j == len(key) || key[j] != '@') {
			visit(strings.Trim(key[i:j], ".-"))
		}
		i = j
	}
}

// keyHosts says which host directions a key holds.
func keyHosts(key string) (forward, reversed bool, example string) {
	hostTokens(key, func(token string) {
		switch hostOrientation(token) {
		case hostForward:
			if !forward {
				example = token
			}
			forward = true
		case hostReversed:
			reversed = true
		}
	})
	return forward, reversed, example
}

// checkDomains raises domain-not-reversed when most sampled keys hold a
// host name written forward. Keys are scanned whole rather than per
// segment, because the dot may itself be a delimiter.
func checkDomains(d *diagnosis) []Finding {
	rows := d.profile.rows
	if len(rows) == 0 {
		return nil
	}
	var forward, reversed int
	var example string
	for _, row := range rows {
		f, r, e := keyHosts(string(row.Key))
		if f {
			forward++
			if example == "" {
				example = e
			}
		}
		if r {
			reversed++
		}
	}
	share := float64(forward) / float64(len(rows))
	if share < domainMinShare || float64(forward) < domainForwardDominance*float64(reversed) {
		return nil
	}
	evidence := Evidence{}
	evidence.set("forward_host_share", share)
	evidence.set("keys_with_forward_host", float64(forward))
	evidence.set("keys_with_reversed_host", float64(reversed))
	evidence.set("sampled_keys", float64(len(rows)))
	evidence.set("min_share", domainMinShare)
	start, end := d.tableWide()
	return []Finding{{
		Kind:     KindDomainNotReversed,
		Severity: SeverityWarning,
		Start:    start,
		End:      end,
		Summary: units.Percent(share) + " of sampled keys hold a host name written forward, e.g. " +
			keyspace.Printable(example) + " (reversed: " + keyspace.Printable(reverseField(example)) +
			"), so one site's hosts scatter over the key space",
		Advice:   domainAdvice,
		Evidence: evidence,
	}}
}
