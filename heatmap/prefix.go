package heatmap

// prefixUnits lists the units for prefix bucketing: the nodes depth levels
// below the scope's anchor (leaves above that depth stand for
// themselves).
func prefixUnits(sc scope, depth int) []unit {
	return collectUnits(sc, func(_ *unit, level int) bool { return level < depth })
}
