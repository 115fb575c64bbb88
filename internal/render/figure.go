package render

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/btviz/btviz/internal/escape"
	"github.com/btviz/btviz/internal/heatmap"
)

// ImageOptions set how [ChartPNG], [ChartSVG] and [ChartImage] draw a
// matrix. The zero value of each field picks a default.
type ImageOptions struct {
	// Width and Height are the image size in pixels (default
	// [DefaultImageWidth] × [DefaultImageHeight]).
	Width, Height int
	Theme         Theme
	Palette       Palette
	Scale         heatmap.Scale
	// Caption is the title and subtitle; see [heatmap.Describe]. An empty title
	// falls back to the table and metric.
	Caption heatmap.Caption
	// Location is the time zone of the time axis (default UTC).
	Location *time.Location
	// Marks point at key ranges of the figure (a finding's), each drawn
	// as a bracket right of the heat area with its number and note; the
	// buckets a mark covers are always labelled.
	Marks []Mark
	// Notes are lines written under the legend (a numbered list of
	// findings, say), wrapped to the width; those that do not fit end in
	// a line that says how many are left out.
	Notes []string
}

// Mark points a reader at buckets First to Last (inclusive) of a matrix:
// a finding's key range, with the number the report gives it and a short
// note ("hot-key-range · 38% of rows").
type Mark struct {
	First, Last int
	Number      int
	Note        string
}

// Text returns the mark's label: its number and note.
func (k Mark) Text() string {
	if k.Note == "" {
		return strconv.Itoa(k.Number)
	}
	return strconv.Itoa(k.Number) + " " + k.Note
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
	figTitleLine     = 26 // a title line's height
	figSubtitleLine  = 17
	figCaptionGap    = 21 // from the last caption line to the heat area
	figMarkGap       = 6  // from the heat area (or its values) to a mark's bracket
	figMarkText      = 8  // from a mark's bracket to its text
	figMaxMarkChars  = 48
	figValueChars    = 8 // the values written right of a strip without a time axis
	// figMinHeatShare is the least share of the height the heat area
	// keeps when captions and notes are long.
	figMinHeatShare = 0.35
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
	m                 *heatmap.Matrix
	o                 ImageOptions
	theme             Theme
	mapping           heatmap.Mapping
	width, height     int
	heat              rect
	labelChars        int
	text, label, axis color.RGBA
	muted, background color.RGBA
	accent            color.RGBA
	legendTop         int
	// title and subtitle are the caption's lines, wrapped to the width.
	title, subtitle []string
	// notes are the note lines that fit, notesTop the first one's top.
	notes    []string
	notesTop int
	// marks are the marks inside the matrix; markX is where their
	// brackets stand and markChars how many characters their text gets.
	marks     []Mark
	markX     int
	markChars int
}

func newFigure(m *heatmap.Matrix, o ImageOptions, width, height int) *figure {
	f := &figure{m: m, o: o, theme: o.Theme.orDefault(), mapping: o.Scale.Fit(m), width: width, height: height}
	f.text, f.label, f.axis = rgba(f.theme.Text), rgba(f.theme.Label), rgba(f.theme.Axis)
	f.muted, f.background = rgba(f.theme.Muted), rgba(f.theme.Background)
	f.accent = rgba(f.theme.Accent)

	longest := figMinLabelChars
	for i := range m.Buckets {
		longest = max(longest, len([]rune(m.Buckets[i].Label)))
	}
	f.labelChars = min(longest, figMaxLabelChars)

	title := escape.Text(o.Caption.Title)
	if title == "" {
		title = escape.Text(m.Table + " — " + m.Description())
	}
	f.title = wrapText(title, f.charsIn(width-2*figMargin, figTitleSize))
	f.subtitle = wrapText(escape.Text(o.Caption.Subtitle), f.charsIn(width-2*figMargin, figSubtitleSize))
	top := figMargin + len(f.title)*figTitleLine + len(f.subtitle)*figSubtitleLine + figCaptionGap

	var notes []string
	for _, note := range o.Notes {
		notes = append(notes, wrapText(escape.Text(note), f.charsIn(width-2*figMargin, figLabelSize))...)
	}
	chrome := figLegendHeight + 8
	if m.Timed() {
		chrome = figLegendHeight + figAxisHeight
	}
	room := height - figMargin - top - chrome - int(figMinHeatShare*float64(height))
	if fit := max(room/figLineHeight-1, 0); len(notes) > fit {
		left := len(notes) - max(fit-1, 0)
		notes = append(notes[:max(fit-1, 0)], fmt.Sprintf("… and %d more lines (the report lists everything)", left))
		if fit == 0 {
			notes = nil
		}
	}
	f.notes = notes
	notesHeight := 0
	if len(notes) > 0 {
		notesHeight = len(notes)*figLineHeight + 10
	}
	f.notesTop = height - figMargin - notesHeight + 10
	f.legendTop = height - figMargin - notesHeight - figLegendHeight
	bottom := f.legendTop - 8
	if m.Timed() {
		bottom = f.legendTop - figAxisHeight
	}
	left := figMargin + int(math.Ceil(float64(f.labelChars)*charWidth(figLabelSize))) + figGutterPadding
	right := width - figMargin
	for _, k := range o.Marks {
		if k.First < 0 || k.Last < k.First || k.First >= len(m.Buckets) {
			continue
		}
		k.Last = min(k.Last, len(m.Buckets)-1)
		f.marks = append(f.marks, k)
		f.markChars = max(f.markChars, len([]rune(escape.Text(k.Text()))))
	}
	if len(f.marks) > 0 {
		f.markChars = min(f.markChars, figMaxMarkChars)
		reserve := figMarkGap + figMarkText + int(math.Ceil(float64(f.markChars)*charWidth(figSmallSize)))
		if !m.Timed() {
			reserve += int(math.Ceil(figValueChars * charWidth(figLabelSize)))
		}
		right = max(right-reserve, left+figSingleColumn/2)
	}
	if !m.Timed() {
		right = min(right, left+figSingleColumn)
	}
	f.heat = rect{x0: left, y0: top, x1: right, y1: bottom}
	f.markX = f.heat.x1 + figMarkGap
	if !m.Timed() {
		f.markX += int(math.Ceil(figValueChars*charWidth(figLabelSize))) + figMarkGap
	}
	return f
}

// wrapText wraps s at spaces into lines of at most n characters; a word
// longer than a line is cut to it with "…" (keys can be long), so no
// line runs past the figure.
func wrapText(s string, n int) []string {
	if s == "" || n <= 0 {
		return nil
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if len([]rune(word)) > n {
			word = fitChars(word, n)
		}
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= n:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
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
	f.drawMarks(c)
	f.drawLegend(c)
	f.drawNotes(c)
}

// drawCaption writes the title and the subtitle, whole, on as many lines
// as they need.
func (f *figure) drawCaption(c canvas) {
	y := figMargin + figTitleSize - 4
	for _, line := range f.title {
		c.text(figMargin, y, line, figTitleSize, true, f.text, anchorStart)
		y += figTitleLine
	}
	y += figSubtitleSize + 9 - figTitleLine // the subtitle's first baseline, 22 px below the title's last
	for _, line := range f.subtitle {
		c.text(figMargin, y, line, figSubtitleSize, false, f.axis, anchorStart)
		y += figSubtitleLine
	}
}

// drawNotes writes the note lines under the legend.
func (f *figure) drawNotes(c canvas) {
	for i, line := range f.notes {
		c.text(figMargin, f.notesTop+i*figLineHeight+figLabelSize, line, figLabelSize, false, f.text, anchorStart)
	}
}

// bucketY returns the top and bottom pixel rows of bucket b.
func (f *figure) bucketY(b int) (top, bottom int) {
	buckets := max(len(f.m.Buckets), 1)
	return f.heat.y0 + b*f.heat.height()/buckets, f.heat.y0 + (b+1)*f.heat.height()/buckets
}

// drawMarks draws each mark as a bracket beside the buckets it covers,
// with its number and note at its top; texts that would overlap move
// down.
func (f *figure) drawMarks(c canvas) {
	nextY := 0
	for _, k := range f.marks {
		top, _ := f.bucketY(k.First)
		_, bottom := f.bucketY(k.Last)
		bottom = max(bottom, top+3)
		x := f.markX
		c.fill(x, top, x+2, bottom, f.accent)
		c.fill(x-figMarkGap+1, top, x, top+2, f.accent)
		c.fill(x-figMarkGap+1, bottom-2, x, bottom, f.accent)
		y := max((top+bottom)/2+figSmallSize/2-1, nextY)
		c.text(x+figMarkText, y, fitChars(escape.Text(k.Text()), f.markChars), figSmallSize, true, f.accent, anchorStart)
		nextY = y + figLineHeight
	}
}

// charsIn returns how many characters of a size fit in pixels, at the
// advance rounded up to a whole pixel (as the rasterizer places glyphs),
// so that a wrapped line never runs past the figure.
func (f *figure) charsIn(pixels int, size float64) int {
	return int(float64(pixels) / math.Ceil(charWidth(size)))
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
// without overlapping, with a tick at each: first every bucket a mark
// covers, then others at an even step between them. Without a time axis,
// each labelled bucket's value is written right of its cell.
func (f *figure) drawKeyAxis(c canvas) {
	buckets := len(f.m.Buckets)
	if buckets == 0 {
		c.text(f.heat.x0+8, f.heat.y0+figLineHeight, "no rows in this key range", figLabelSize, false, f.axis, anchorStart)
		return
	}
	rowHeight := float64(f.heat.height()) / float64(buckets)
	center := func(b int) int { return f.heat.y0 + int((float64(b)+0.5)*rowHeight) }
	var taken []int // centres of the labels placed, in placing order
	free := func(y int) bool {
		for _, other := range taken {
			if abs(other-y) < figLineHeight {
				return false
			}
		}
		return true
	}
	var chosen []int
	for _, k := range f.marks {
		for b := k.First; b <= k.Last; b++ {
			if y := center(b); free(y) {
				taken, chosen = append(taken, y), append(chosen, b)
			}
		}
	}
	step := max(1, int(math.Ceil(figLineHeight/rowHeight)))
	for b := 0; b < buckets; b += step {
		if y := center(b); free(y) {
			taken, chosen = append(taken, y), append(chosen, b)
		}
	}
	unit := f.m.View.Metric.Unit()
	labels := f.m.FitFullLabels(f.labelChars)
	for _, b := range chosen {
		y := center(b)
		c.fill(f.heat.x0-figTickLength-1, y, f.heat.x0-1, y+1, f.muted)
		c.text(f.heat.x0-figTickLength-4, y+figLabelSize/2-1, labels[b], figLabelSize, false, f.label, anchorEnd)
		if !f.m.Timed() {
			c.text(f.heat.x1+8, y+figLabelSize/2-1, unit.Format(f.m.Buckets[b].Values[0]), figLabelSize, false, f.text, anchorStart)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
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
	what := "write time"
	if f.m.CallTime {
		what = "time" // of the recorded calls, or of the hot tablets' samples
	}
	caption := what + ", " + zone.Format("MST") + ": " + zone.Format("2006-01-02 15:04") + " – " +
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
	for _, tick := range legendTicks(unit, f.mapping) {
		a := anchorMiddle
		switch tick.at {
		case 0:
			a = anchorStart
		case 1:
			a = anchorEnd
		}
		tx := x + int(tick.at*float64(ramp))
		c.text(tx, barTop+figSwatch+figSmallSize+3, tick.label, figSmallSize, false, f.axis, a)
	}
}
