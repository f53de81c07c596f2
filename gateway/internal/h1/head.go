package h1

import (
	"bufio"
	"errors"
)

// errHeaderTooLarge answers 431, like net/http.
var errHeaderTooLarge = errors.New("request header too large")

// readHead reads one request head (through the empty line) into buf.
func readHead(br *bufio.Reader, buf []byte, limit int) ([]byte, error) {
	for {
		line, err := br.ReadSlice('\n')
		if len(buf)+len(line) > limit {
			return buf, errHeaderTooLarge
		}
		buf = append(buf, line...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return buf, err
		}
		if len(line) <= 2 && (len(line) == 1 || line[0] == '\r') && len(buf) > len(line) {
			return buf, nil
		}
	}
}
