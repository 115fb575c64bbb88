package view

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

// Rect is a rectangle of cells: top-left corner and size.
type Rect struct{ X, Y, W, H int }

// Contains reports whether the cell (x, y) lies in r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H
}

// Layout places every part of the screen for one terminal size. It is
// computed once per tea.WindowSizeMsg (and when the full help opens or
// closes); renderers and mouse hit tests read it.
type Layout struct {
	width, height int
	// TooSmall is set below [MinWidth]×[MinHeight]: nothing else is set.
	TooSmall bool
	// Wide puts details and findings in a column right of main.
	Wide bool
	// Header, Main, Details, Findings, Status and Help are where each
	// part of the table screen is drawn.
	Header, Main, Details, Findings, Status, Help Rect
	// Picker is the table picker's list area (the whole body).
	Picker Rect
}

// newLayout lays out a width×height screen with helpLines lines of help.
func newLayout(width, height, helpLines int) Layout {
	l := Layout{width: width, height: height}
	if width < MinWidth || height < MinHeight {
		l.TooSmall = true
		return l
	}
	helpLines = min(max(helpLines, shortHelpLines), maxFullHelpLines)
	l.Header = Rect{0, 0, width, headerLines}
	l.Help = Rect{0, height - helpLines, width, helpLines}
	l.Status = Rect{0, l.Help.Y - statusLines, width, statusLines}
	body := Rect{0, headerLines, width, l.Status.Y - headerLines}
	l.Picker = body
	if width >= wideLayoutWidth {
		l.Wide = true
		side := min(max(int(float64(width)*sideWidthShare), minSideWidth), maxSideWidth)
		l.Main = Rect{0, body.Y, width - side - separatorWidth, body.H}
		sx := l.Main.W + separatorWidth
		detailsLines := max(int(float64(body.H)*detailsShare), body.H-max(minFindingsLines, body.H/3))
		detailsLines = min(detailsLines, body.H-minFindingsLines)
		l.Details = Rect{sx, body.Y, side, detailsLines}
		l.Findings = Rect{sx, body.Y + detailsLines, side, body.H - detailsLines}
		return l
	}
	bottom := min(max(int(float64(body.H)*bottomShare), minBottomLines), maxBottomLines)
	l.Main = Rect{0, body.Y, width, body.H - bottom}
	half := (width - separatorWidth) / 2
	l.Details = Rect{0, l.Main.Y + l.Main.H, half, bottom}
	l.Findings = Rect{half + separatorWidth, l.Details.Y, width - half - separatorWidth, bottom}
	return l
}
