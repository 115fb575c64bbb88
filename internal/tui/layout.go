package tui

// Minimum and preferred sizes, in terminal cells.
const (
	// MinWidth and MinHeight are the smallest terminal btviz draws in;
	// below it shows only a "terminal too small" message.
	MinWidth  = 80
	MinHeight = 24

	// headerLines: title and scan, breadcrumb and view, notes.
	headerLines = 3
	// statusLines and shortHelpLines make the footer.
	statusLines    = 1
	shortHelpLines = 1
	// wideLayoutWidth is the width from which the details and findings
	// panes stand in a column right of the main pane rather than below it.
	wideLayoutWidth = 120
	// sideWidthShare, minSideWidth and maxSideWidth size that column.
	sideWidthShare = 0.36
	minSideWidth   = 44
	maxSideWidth   = 76
	// minBottomLines and maxBottomLines bound the strip below the main
	// pane in the narrow layout; bottomShare is its share of the body.
	minBottomLines = 8
	maxBottomLines = 14
	bottomShare    = 0.4
	// detailsShare is the details pane's share of the side column.
	detailsShare = 0.55
	// minFindingsLines keeps the findings pane readable in the side column.
	minFindingsLines = 6
	// separatorWidth is the vertical rule between side-by-side panes.
	separatorWidth = 1
	// maxFullHelpLines bounds the full help.
	maxFullHelpLines = 8
)

// rect is a rectangle of cells: top-left corner and size.
type rect struct{ x, y, w, h int }

// contains reports whether the cell (x, y) lies in r.
func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// layout places every part of the screen for one terminal size. It is
// computed once per tea.WindowSizeMsg (and when the full help opens or
// closes); renderers and mouse hit tests read it.
type layout struct {
	width, height int
	// tooSmall is set below [MinWidth]×[MinHeight]: nothing else is set.
	tooSmall bool
	// wide puts details and findings in a column right of main.
	wide                                          bool
	header, main, details, findings, status, help rect
	// picker is the table picker's list area (the whole body).
	picker rect
}

// newLayout lays out a width×height screen with helpLines lines of help.
func newLayout(width, height, helpLines int) layout {
	l := layout{width: width, height: height}
	if width < MinWidth || height < MinHeight {
		l.tooSmall = true
		return l
	}
	helpLines = min(max(helpLines, shortHelpLines), maxFullHelpLines)
	l.header = rect{0, 0, width, headerLines}
	l.help = rect{0, height - helpLines, width, helpLines}
	l.status = rect{0, l.help.y - statusLines, width, statusLines}
	body := rect{0, headerLines, width, l.status.y - headerLines}
	l.picker = body
	if width >= wideLayoutWidth {
		l.wide = true
		side := min(max(int(float64(width)*sideWidthShare), minSideWidth), maxSideWidth)
		l.main = rect{0, body.y, width - side - separatorWidth, body.h}
		sx := l.main.w + separatorWidth
		detailsLines := max(int(float64(body.h)*detailsShare), body.h-max(minFindingsLines, body.h/3))
		detailsLines = min(detailsLines, body.h-minFindingsLines)
		l.details = rect{sx, body.y, side, detailsLines}
		l.findings = rect{sx, body.y + detailsLines, side, body.h - detailsLines}
		return l
	}
	bottom := min(max(int(float64(body.h)*bottomShare), minBottomLines), maxBottomLines)
	l.main = rect{0, body.y, width, body.h - bottom}
	half := (width - separatorWidth) / 2
	l.details = rect{0, l.main.y + l.main.h, half, bottom}
	l.findings = rect{half + separatorWidth, l.details.y, width - half - separatorWidth, bottom}
	return l
}
