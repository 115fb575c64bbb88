package diagnose

import (
	"fmt"
	"strings"

	"github.com/btviz/btviz/internal/units"
)

// Severity ranks a [Finding]: [SeverityInfo] < [SeverityWarning] <
// [SeverityError]. Its text form is the lower-case name used in reports
// and by --fail-on.
type Severity int8

const (
	// SeverityInfo is a note about what the snapshot can or cannot show.
	SeverityInfo Severity = iota
	// SeverityWarning is a design that goes against the schema guidance.
	SeverityWarning
	// SeverityError is past a hard Bigtable limit: writes or reads fail.
	SeverityError
)

// severityNames are the text forms of the severities, in order.
var severityNames = [...]string{"info", "warning", "error"}

// Severities returns every severity from the mildest to the worst.
func Severities() []Severity { return []Severity{SeverityInfo, SeverityWarning, SeverityError} }

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	if s < SeverityInfo || s > SeverityError {
		return fmt.Sprintf("severity(%d)", int8(s))
	}
	return severityNames[s]
}

// MarshalText writes the severity's name.
func (s Severity) MarshalText() ([]byte, error) {
	if s < SeverityInfo || s > SeverityError {
		return nil, fmt.Errorf("invalid severity %d", int8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a severity's name (see [ParseSeverity]).
func (s *Severity) UnmarshalText(text []byte) error {
	parsed, err := ParseSeverity(string(text))
	if err != nil {
		return err
	}
	*s = parsed
	return nil
}

// SeverityNames returns the names of [Severities] as help texts and
// errors list them: "info, warning or error".
func SeverityNames() string { return units.OrList(severityNames[:]) }

// ParseSeverity reads "info", "warning" or "error" (any case, surrounding
// space ignored), as --fail-on takes it. The error lists the valid names.
func ParseSeverity(name string) (Severity, error) {
	clean := strings.ToLower(strings.TrimSpace(name))
	for i, known := range severityNames {
		if clean == known {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q: use %s", name, SeverityNames())
}
