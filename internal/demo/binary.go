package demo

import (
	"encoding/binary"
	"time"
)

// Sensor readings keyed by packed binary fields.
const (
	binarySensors         = 400
	binaryReadingsPerUnit = 50
	binaryWindow          = 24 * time.Hour
	// binaryReadingFloats is how many float32 readings a value packs.
	binaryReadingFloats = 4
)

// binaryEscapeSensors are sensor IDs whose bytes a terminal would act on:
// ESC [ 3 1 (an ANSI colour sequence), the 8-bit CSI 0x9b followed by "0m"
// and BEL, and a mix with NUL and ESC. They make sure every rendering path
// escapes keys.
var binaryEscapeSensors = []uint32{0x1b5b3331, 0x9b306d07, 0x0007001b}

// binaryKeysScenario: sensor readings keyed by raw bytes (bad).
//
// Key: 12 bytes, the sensor ID as a big-endian uint32, then the epoch
// milliseconds as a big-endian uint64 (so every key holds NUL bytes), e.g.
// "\x1b[31\x00\x00\x01\xa1…". Three sensors have IDs with ESC (0x1b), BEL
// (0x07), NUL and CSI (0x9b) bytes: "\x1b[31", "\x9b0m\x07", "\x00\x07\x00\x1b".
// Rows: 20,000 (400 sensors × 50 readings at random times in the last
// 24 h), one cell r:v of 16 bytes (four little-endian float32). Expects
// binary-key, table-wide.
func binaryKeysScenario() Scenario {
	w := lastWindow(binaryWindow)
	return Scenario{
		Name:        "binary-sensor-keys",
		Description: "sensor readings keyed by packed big-endian bytes, some with ESC, BEL, NUL and CSI (bad)",
		KeyFormat:   "<sensor id, uint32 BE><epoch millis, uint64 BE>",
		Expect:      []string{kindBinaryKey},
		Families:    []string{"r"},
		Rows:        binarySensors * binaryReadingsPerUnit,
		TimeStart:   w.start,
		TimeEnd:     w.end,
		generate: func(put Put) error {
			r := newRand("binary-sensor-keys")
			sensors := append([]uint32(nil), binaryEscapeSensors...)
			seen := make(map[uint32]bool, binarySensors)
			for _, id := range sensors {
				seen[id] = true
			}
			for len(sensors) < binarySensors {
				if id := r.Uint32(); !seen[id] {
					seen[id] = true
					sensors = append(sensors, id)
				}
			}
			for _, sensor := range sensors {
				for _, at := range distinctTimes(r, binaryReadingsPerUnit, w.start, w.end) {
					key := make([]byte, 12)
					binary.BigEndian.PutUint32(key, sensor)
					binary.BigEndian.PutUint64(key[4:], uint64(at.UnixMilli()))
					// The value is four float32 readings: 16 bytes, drawn as
					// four random numbers.
					for range binaryReadingFloats {
						r.Float64()
					}
					if err := put(string(key), cellAt("r", "v", at, 4*binaryReadingFloats)); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}
