package heatmap

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"time"
)

// ImageOptions set how [RenderPNG], [RenderSVG] and [RenderImage] draw a
// matrix. The zero value of each field picks a default.
type ImageOptions struct {
	// Width and Height are the image size in pixels (default
	// [DefaultImageWidth] × [DefaultImageHeight]).
	Width, Height int
	Theme         Theme
	Palette       Palette
	Scale         Scale
	// Caption is the title and subtitle; see [Describe]. An empty title
	// falls back to the table and metric.
	Caption Caption
	// Location is the time zone of the time axis (default UTC).
	Location *time.Location
}

// Image sizes: the default is readable at review size; below the minimum
// the labels no longer fit.
const (
	DefaultImageWidth  = 1200
	DefaultImageHeight = 800
	MinImageWidth      = 480
	MinImageHeight     = 320
)

// Figure metrics in pixels.
const (
	figMargin        = 24
	figTitleSize     = 20
	figSubtitleSize  = 13
	figLabelSize     = 13
	figSmallSize     = 12
	figHeatTop       = figMargin + 64
	figLineHeight    = 17
	figLegendHeight  = 52
	figAxisHeight    = 40
	figGutterPadding = 14
	figMaxLabelChars = 40
	figMinLabelChars = 10
	figTickLength    = 5
	figSingleColumn  = 260 // heat strip width without a time axis
	figLegendRamp    = 320
	figSwatch        = 14
)

// ErrImageTooSmall is returned (wrapped) for an image below
// [MinImageWidth] × [MinImageHeight].
var ErrImageTooSmall = errors.New("image too small")

func (o ImageOptions) size() (width, height int, err error) {
	width, height = o.Width, o.Height
	if width == 0 {
		width = DefaultImageWidth
	}
	if height == 0 {
		height = DefaultImageHeight
	}
	if width < MinImageWidth || height < MinImageHeight {
		return 0, 0, fmt.Errorf("%w: %d×%d pixels; make it at least %d×%d", ErrImageTooSmall, width, height, MinImageWidth, MinImageHeight)
	}
	return width, height, nil
}

// rect is a pixel rectangle [x0, x1) × [y0, y1).
type rect struct{ x0, y0, x1, y1 int }

func (r rect) width() int  { return r.x1 - r.x0 }
func (r rect) height() int { return r.y1 - r.y0 }

// figure lays out and draws one image of a matrix.
type figure struct {
	m                   *Matrix
	o                   ImageOptions
	theme               Theme
	mapping             Mapping
	width, height       int
	heat                rect
	labelChars          int
	text, label, axis   color.RGBA
	muted, background   color.RGBA
	legendTop, axisLine int
}

func newFigure(m *Matrix, o ImageOptions, width, height int) *figure {
	f := &figure{m: m, o: o, theme: o.Theme.orDefault(), mapping: o.Scale.Fit(m), width: width, height: height}
	f.text, f.label, f.axis = rgba(f.theme.Text), rgba(f.theme.Label), rgba(f.theme.Axis)
	f.muted, f.background = rgba(f.theme.Muted), rgba(f.theme.Background)

	longest := figMinLabelChars
	for i := range m.Buckets {
		longest = max(longest, len([]rune(m.Buckets[i].Label)))
	}
	f.labelChars = min(longest, figMaxLabelChars)
	f.legendTop = height - figMargin - figLegendHeight
	bottom := f.legendTop - 8
	if m.Timed() {
		bottom = f.legendTop - figAxisHeight
	}
	left := figMargin + int(math.Ceil(float64(f.labelChars)*charWidth(figLabelSize))) + figGutterPadding
	right := width - figMargin
	if !m.Timed() {
		right = min(right, left+figSingleColumn)
	}
	f.heat = rect{x0: left, y0: figHeatTop, x1: right, y1: bottom}
	return f
}

// draw paints the whole figure on c.
func (f *figure) draw(c canvas) {
	c.fill(0, 0, f.width, f.height, f.background)
	f.drawCaption(c)
	f.drawFrame(c)
	f.drawCells(c)
	f.drawKeyAxis(c)
	if f.m.Timed() {
		f.drawTimeAxis(c)
	}
	f.drawLegend(c)
}

func (f *figure) drawCaption(c canvas) {
	title := sanitize(f.o.Caption.Title)
	if title == "" {
		title = sanitize(f.m.Table + " — " + f.m.Description())
	}
	c.text(figMargin, figMargin+figTitleSize-4, fitChars(title, f.charsIn(f.width-2*figMargin, figTitleSize)), figTitleSize, true, f.text, anchorStart)
	subtitle := fitChars(sanitize(f.o.Caption.Subtitle), f.charsIn(f.width-2*figMargin, figSubtitleSize))
	c.text(figMargin, figMargin+figTitleSize+18, subtitle, figSubtitleSize, false, f.axis, anchorStart)
}

// charsIn returns how many characters of a size fit in pixels.
func (f *figure) charsIn(pixels int, size float64) int {
	return int(float64(pixels) / charWidth(size))
}

// fitChars cuts s to n characters, ending in "…" when cut.
func fitChars(s string, n int) string {
	runes := []rune(s)
	if len(runes) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return string(runes[:n-1]) + ellipsis
}

// drawFrame outlines the heat area.
func (f *figure) drawFrame(c canvas) {
	h := f.heat
	c.fill(h.x0-1, h.y0-1, h.x1+1, h.y0, f.muted)
	c.fill(h.x0-1, h.y1, h.x1+1, h.y1+1, f.muted)
	c.fill(h.x0-1, h.y0, h.x0, h.y1, f.muted)
	c.fill(h.x1, h.y0, h.x1+1, h.y1, f.muted)
}

// drawCells paints the heat cells, one rectangle per run of equal colour
// in a row; buckets and columns beyond the pixels available are pooled by
// their maximum, so a hot key never drops out.
func (f *figure) drawCells(c canvas) {
	buckets, columns := len(f.m.Buckets), f.m.Columns()
	if buckets == 0 || f.heat.width() <= 0 || f.heat.height() <= 0 {
		return
	}
	rows, cols := min(buckets, f.heat.height()), min(columns, f.heat.width())
	palette := f.o.Palette.orDefault()
	colors := make([]color.RGBA, cols)
	pooled := make([]float64, columns)
	for r := range rows {
		rs := spanFor(r, rows, buckets)
		copy(pooled, f.m.Buckets[rs.lo].Values)
		for b := rs.lo + 1; b < rs.hi; b++ {
			for j, v := range f.m.Buckets[b].Values {
				pooled[j] = max(pooled[j], v)
			}
		}
		for x := range cols {
			cs := spanFor(x, cols, columns)
			v := pooled[cs.lo]
			for j := cs.lo + 1; j < cs.hi; j++ {
				v = max(v, pooled[j])
			}
			colors[x] = palette.At(Shade(f.mapping.Intensity(v)))
		}
		y0, y1 := f.heat.y0+r*f.heat.height()/rows, f.heat.y0+(r+1)*f.heat.height()/rows
		for start := 0; start < cols; {
			end := start + 1
			for end < cols && colors[end] == colors[start] {
				end++
			}
			x0, x1 := f.heat.x0+start*f.heat.width()/cols, f.heat.x0+end*f.heat.width()/cols
			c.fill(x0, y0, x1, y1, colors[start])
			start = end
		}
	}
}

// drawKeyAxis writes bucket labels left of the heat area, as many as fit
// without overlapping, with a tick at each; without a time axis, each
// labelled bucket's value is written right of its cell.
func (f *figure) drawKeyAxis(c canvas) {
	buckets := len(f.m.Buckets)
	if buckets == 0 {
		c.text(f.heat.x0+8, f.heat.y0+figLineHeight, "no rows in this key range", figLabelSize, false, f.axis, anchorStart)
		return
	}
	rowHeight := float64(f.heat.height()) / float64(buckets)
	step := max(1, int(math.Ceil(figLineHeight/rowHeight)))
	unit := f.m.View.Metric.Unit()
	labels := f.m.FitFullLabels(f.labelChars)
	for b := 0; b < buckets; b += step {
		center := f.heat.y0 + int((float64(b)+0.5)*rowHeight)
		c.fill(f.heat.x0-figTickLength-1, center, f.heat.x0-1, center+1, f.muted)
		c.text(f.heat.x0-figTickLength-4, center+figLabelSize/2-1, labels[b], figLabelSize, false, f.label, anchorEnd)
		if !f.m.Timed() {
			c.text(f.heat.x1+8, center+figLabelSize/2-1, unit.Format(f.m.Buckets[b].Values[0]), figLabelSize, false, f.text, anchorStart)
		}
	}
}

// drawTimeAxis marks round times below the heat area.
func (f *figure) drawTimeAxis(c canvas) {
	width := f.heat.width()
	for _, t := range timeTicks(f.m.Time, float64(width), charWidth(figSmallSize), f.o.Location) {
		x := f.heat.x0 + int(t.frac*float64(width))
		c.fill(x, f.heat.y1+1, x+1, f.heat.y1+1+figTickLength, f.muted)
		c.text(x, f.heat.y1+figTickLength+figSmallSize+3, t.label, figSmallSize, false, f.axis, anchorMiddle)
	}
	zone := f.m.Time.Start.In(locationOr(f.o.Location))
	caption := "write time, " + zone.Format("MST") + ": " + zone.Format("2006-01-02 15:04") + " – " +
		f.m.Time.End.In(locationOr(f.o.Location)).Format("2006-01-02 15:04")
	c.text(f.heat.x1, f.heat.y1+figAxisHeight-6, caption, figSmallSize, false, f.muted, anchorEnd)
}

// drawLegend draws the colour ramp with values along it, a swatch for
// zero and what a cell counts.
func (f *figure) drawLegend(c canvas) {
	palette := f.o.Palette.orDefault()
	top := f.legendTop
	caption := legendCaption(f.m) + " · " + scaleNote(f.mapping) + " scale"
	c.text(f.heat.x0, top+figSmallSize, caption, figSmallSize, false, f.text, anchorStart)

	barTop := top + 20
	x := f.heat.x0
	c.fill(x, barTop, x+figSwatch, barTop+figSwatch, palette.At(0))
	c.text(x+figSwatch/2, barTop+figSwatch+figSmallSize+3, "none", figSmallSize, false, f.axis, anchorMiddle)
	ramp := min(figLegendRamp, max(f.width-figMargin-(x+60), 40))
	x += 60
	for i := range ramp {
		t := float64(i+1) / float64(ramp)
		c.fill(x+i, barTop, x+i+1, barTop+figSwatch, palette.At(Shade(t)))
	}
	unit := f.m.View.Metric.Unit()
	for _, t := range []float64{0, 0.5, 1} {
		value := f.mapping.ValueAt(t)
		a := anchorMiddle
		switch t {
		case 0:
			a = anchorStart
			if f.mapping.Kind == ScaleLinear {
				value = 0
			}
		case 1:
			a = anchorEnd
		}
		tx := x + int(t*float64(ramp))
		c.text(tx, barTop+figSwatch+figSmallSize+3, unit.Format(value), figSmallSize, false, f.axis, a)
	}
}
