package export

import "github.com/btviz/btviz/internal/heatmap"

// ShareScale gives every matrix the colour scale fitted over all of them,
// so that pictures drawn side by side mean the same thing by the same
// brightness: the renderers fit a scale to a matrix's Max and MinPositive
// ([heatmap.Scale.Fit]), so ShareScale sets those to the extremes over all
// matrices. The matrices' values are untouched. Nil matrices are skipped.
func ShareScale(matrices ...*heatmap.Matrix) {
	var top, low float64
	for _, m := range matrices {
		if m == nil {
			continue
		}
		top = max(top, m.Max)
		if m.MinPositive > 0 && (low == 0 || m.MinPositive < low) {
			low = m.MinPositive
		}
	}
	for _, m := range matrices {
		if m != nil {
			m.Max, m.MinPositive = top, low
		}
	}
}
