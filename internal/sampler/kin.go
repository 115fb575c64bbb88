package sampler

import "strings"

// kinPrefix is the prefix of the kin map's keys, which are the keys of
// other prefixes after their own.
const kinPrefix = "\x00"

// judgeKin lets the maps of names take the line of their kin. A table
// of several datasets keyed by the same things (the users of user#,
// post# and like#) holds the same names after every prefix: a prefix
// whose map knows a dozen of its keys lays them on a line that runs
// through every string of letters, where its spans find nothing, while
// together the prefixes' maps know hundreds. A map that knows 83 keys of
// its own still does better on its kin's line, which holds its keys
// too: with 36 witnesses, it left 0.94 of its piece's line in gaps
// over 5 times the mean gap between its users, where its kin's left
// 0.57, and 0.34 with the segments of [keyMap.roomOf] (the 10% sample
// of seed 107052415558, the shape of docs/MEASUREMENTS.md's "Names: where the
// error lies (traced, not fixed)"). Maps of names used to keep their own
// line from 32 witnesses on. The kin's line assumes that the kin share how
// their names spread as well as their words, and nothing here checks it;
// but the kin's line holds the prefix's own keys too, and a prefix whose
// users crowd into two first names (six in ten, against one in fifteen
// in its kin) still did better on it: 0–4 of 200 spans found no key,
// against 0–104 on its own line (TestCrowdedNamesOnTheirKinsLine).
//
// The kin's map leaves out the first and last rows of its prefixes
// (see [keyMaps.learnEnd]): every prefix's first name sorts first and its
// last name last, so that the maps of 67 prefixes gave the kin 67 keys
// at each end of the names beside those drawn anywhere. Counted,
// they gave the first first name (aaron) 0.26 of the kin's line and the
// last (zoe) 0.32, where each holds 3% of the rows; left out, every first
// name's place on the line lies within 0.08 of its share of the rows (the
// 1% sample of seed 64110878, docs/MEASUREMENTS.md's "Names: a kin's line without
// its prefixes' ends").
//
// The kin of a prefix whose keys hold letters past the hex ones are the
// other such prefixes whose known keys mostly begin (up to their first
// byte that is not a letter or digit) as another prefix's do: the same
// vocabulary, not merely letters (random base-36 ids share no first
// word). The kin map holds the keys of every kin after their prefix;
// every kin takes its line when the kin map's keys are names.
func (k *keyMaps) judgeKin() {
	owners := map[string]map[string]bool{} // first segment → the prefixes whose keys take it
	for prefix, m := range k.maps {
		m.kin = nil
		if !wordyPrefix(prefix, m) {
			continue
		}
		for key := range m.known {
			first := firstSegment(key[len(prefix):])
			if first == "" {
				continue
			}
			if owners[first] == nil {
				owners[first] = map[string]bool{}
			}
			owners[first][prefix] = true
		}
	}
	kin := newKeyMap(kinPrefix)
	var kins []*keyMap
	for prefix, m := range k.maps {
		if !wordyPrefix(prefix, m) || !sharesWords(prefix, m, owners) {
			continue
		}
		kins = append(kins, m)
		// Each key not a witness is a run of its own: the kin's line
		// still counts the keys of its maps' runs one by one (they are
		// learned in no fixed order, and maps of the same users share
		// keys, so that runs grouped here would depend on the order).
		for key := range m.known {
			if k.extremes[key] {
				continue
			}
			if m.witnesses[key] {
				kin.learn(kinPrefix + key[len(prefix):])
			} else {
				kin.learnRun(kinPrefix + key[len(prefix):])
			}
		}
		for _, rest := range m.marks {
			kin.mark(kinPrefix + rest)
		}
		kin.marksCut = kin.marksCut || m.marksCut && len(m.marks) > 0
	}
	kin.judge()
	k.kin = kin
	if !kin.namesLike() {
		return
	}
	for _, m := range kins {
		m.kin = kin
	}
}

// kinBlindBefore reports whether the map takes its kin's line and the
// kin know no key before key, a key of the map's prefix: the kin's line
// then gives the stretch up to key next to no room (see
// [pieceRead.blindHead] and [sweptCut.placed]). A nil map takes no line.
func (m *keyMap) kinBlindBefore(key string) bool {
	if m == nil || m.kin == nil || !strings.HasPrefix(key, m.prefix) {
		return false
	}
	at := kinPrefix + key[len(m.prefix):]
	for known := range m.kin.known {
		if known <= at {
			return false
		}
	}
	return true
}

// wordyPrefix reports whether map m of a top-level prefix holds letters
// past the hex ones.
func wordyPrefix(prefix string, m *keyMap) bool {
	return prefix != "" && m.wordy && len(m.known) > 0
}

// sharesWords reports whether most of the known keys of prefix's map m
// begin as a known key of another prefix does (owners gives the prefixes
// whose known keys take each first segment).
func sharesWords(prefix string, m *keyMap, owners map[string]map[string]bool) bool {
	shared := 0
	for key := range m.known {
		if len(owners[firstSegment(key[len(prefix):])]) >= 2 {
			shared++
		}
	}
	return 2*shared > len(m.known)
}

// firstSegment returns key up to and with its first byte that is not a
// letter or digit (all of it when it has none).
func firstSegment(key string) string {
	for i := 0; i < len(key); i++ {
		if !isAlnum(key[i]) {
			return key[:i+1]
		}
	}
	return key
}
