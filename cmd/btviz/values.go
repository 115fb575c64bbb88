package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/btviz/btviz/internal/escape"
)

// sampleRange is what --sample takes, in words, for its help and its
// errors.
const sampleRange = "a fraction of the rows above 0 and at most 1, or a percentage above 0% and at most 100%, e.g. 0.05 or 5%"

// fractionValue is --sample's value: a fraction of the rows written as a
// number (0.05) or a percentage (5%), above zero and at most all of
// them. It refuses 0 (which would silently mean "no sample"), a negative
// number and more than all the rows, naming the valid range.
type fractionValue struct{ fraction *float64 }

// Set parses text as a fraction or a percentage.
func (v fractionValue) Set(text string) error {
	fraction, err := parseFraction(text)
	if err != nil {
		return err
	}
	*v.fraction = fraction
	return nil
}

// String writes the fraction as --sample takes it back.
func (v fractionValue) String() string {
	if v.fraction == nil || *v.fraction == 0 {
		return ""
	}
	return strconv.FormatFloat(*v.fraction, 'g', -1, 64)
}

// Type names the value in help texts.
func (fractionValue) Type() string { return "fraction" }

// parseFraction reads "0.05", ".5", "1e-4", "5%" or "100%".
func parseFraction(text string) (float64, error) {
	clean := strings.TrimSpace(text)
	percent := strings.HasSuffix(clean, "%")
	number := strings.TrimSpace(strings.TrimSuffix(clean, "%"))
	value, err := strconv.ParseFloat(number, 64)
	if err != nil || math.IsNaN(value) || math.IsInf(value, 0) {
		return 0, fmt.Errorf("give %s", sampleRange)
	}
	if percent {
		value /= 100
	}
	switch {
	case value <= 0:
		return 0, fmt.Errorf("a sample must read some rows: give %s (--full reads every row)", sampleRange)
	case value > 1:
		hint := ""
		if !percent && value <= 100 {
			hint = fmt.Sprintf(" (for %s percent, write %s%%)", number, number)
		}
		return 0, fmt.Errorf("that is more than all the rows: give %s%s", sampleRange, hint)
	}
	return value, nil
}

// flagValueError words a value the command line could not parse for a
// flag without the parser's internals (strconv's "invalid syntax", Go
// type names): the flag, the value and what it takes, by the flag's kind.
// Values btviz parses itself ([fractionValue]) say it in their own words.
func flagValueError(invalid *pflag.InvalidValueError) error {
	flag, value := invalid.GetFlag(), escape.Quote(invalid.GetValue())
	name := "--" + flag.Name
	var what string
	switch flag.Value.Type() {
	case "fraction":
		what = errors.Unwrap(invalid).Error()
	case "bool":
		what = fmt.Sprintf("%s is a switch: give it alone (%s), or as %s=true or %s=false", name, name, name, name)
	case "int", "int64", "int32", "uint", "uint64", "uint32":
		what = "give a whole number"
		if flag.DefValue != "" && flag.DefValue != "0" {
			what += ", e.g. " + flag.DefValue
		}
	case "float64", "float32":
		what = "give a number, e.g. 0.5"
	case "duration":
		what = "give a duration with its unit, e.g. 30s, 10m or 1h30m"
	default:
		what = "see " + name + " in --help for the values it takes"
	}
	return fmt.Errorf("%s %s: %s", name, value, what)
}

// commandLineError is every command's flag error function: a value a
// flag could not parse is worded by [flagValueError]; every other
// mistake (an unknown flag, a missing value) as pflag says it. Either is
// a usage error that --help explains.
func commandLineError(err error) error {
	var invalid *pflag.InvalidValueError
	if errors.As(err, &invalid) {
		return flagError(flagValueError(invalid))
	}
	return flagError(err)
}
