package h1

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"testing"
)

// BenchmarkServe: one keep-alive connection, a request as the gateway gets
// it (credentials, trace context, small JSON body), a small JSON answer.
// allocs/op covers server and raw client; the client allocates nothing.
func BenchmarkServe(b *testing.B) {
	req := []byte("POST /v2/users/get HTTP/1.1\r\nHost: gw\r\nUser-Agent: bench\r\nContent-Type: application/json\r\n" +
		"X-Svc-Api-Key: key-1\r\nX-Svc-Auth-Token: token-1\r\n" +
		"Traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\nContent-Length: 11\r\n\r\n{\"data\":{}}")
	answer := []byte(`{"data":{"id":"u1"}}`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var buf [64]byte
		n, _ := io.ReadFull(r.Body, buf[:r.ContentLength])
		if n == 0 || r.Header.Get("X-Svc-Api-Key") == "" {
			w.WriteHeader(http.StatusBadRequest)
		}
		w.Header()["Content-Type"] = []string{"application/json"}
		_, _ = w.Write(answer)
	})
	for _, kind := range []string{"net/http", "h1"} {
		b.Run(kind, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			if kind == "h1" {
				s := &Server{Handler: h}
				go func() { _ = s.Serve(ln) }()
				defer s.Close()
			} else {
				s := &http.Server{Handler: h}
				go func() { _ = s.Serve(ln) }()
				defer s.Close()
			}
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			br := bufio.NewReaderSize(c, 4096)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := c.Write(req); err != nil {
					b.Fatal(err)
				}
				if err := skipAnswer(br, len(answer)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// skipAnswer reads a head and a body of n bytes.
func skipAnswer(br *bufio.Reader, n int) error {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if bytes.Equal(line, []byte("\r\n")) {
			_, err := br.Discard(n)
			return err
		}
	}
}
