package embedded

import (
	"fmt"

	"github.com/alicebob/miniredis/v2"
)

// StartRedis runs an in-process miniredis on a free loopback port and returns
// its redis:// URL. It holds data in memory only; stop discards it.
func StartRedis() (url string, stop func(), err error) {
	s := miniredis.NewMiniRedis()
	if err := s.Start(); err != nil {
		return "", nil, fmt.Errorf("embedded: miniredis: %w", err)
	}
	return "redis://" + s.Addr(), s.Close, nil
}
