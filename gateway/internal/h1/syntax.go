package h1

import (
	"encoding/binary"
	"net/textproto"
	"strings"
	"unsafe"
)

func validHost(h string) bool {
	for i := 0; i < len(h); i++ {
		if !hostBytes[h[i]] {
			return false
		}
	}
	return true
}

// hostBytes is hostByte as a table: a lookup instead of a chain of
// comparisons and a search per byte.
var hostBytes = byteTable(hostByte)

func byteTable(ok func(byte) bool) (t [256]bool) {
	for c := range 256 {
		t[c] = ok(byte(c))
	}
	return t
}

func hostByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("!$%&'()*+,-.:;=[]_~", c) >= 0
}

func plainName(n string) bool {
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// valueByte marks the bytes a plain field value may hold.
var valueByte = func() (t [256]bool) {
	t['\t'] = true
	for c := 0x20; c <= 0x7e; c++ {
		t[c] = true
	}
	return t
}()

// plainValue reports whether every byte of v is a valueByte, eight at a
// time: a word with no control byte (below 0x20, or 0x7f) and no byte
// from 0x80 up is plain; any other word (a tab, say) is looked up byte by
// byte.
func plainValue(v string) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	if len(v) >= 8 {
		p := unsafe.Pointer(unsafe.StringData(v))
		for ; i+8 <= len(v); i += 8 {
			x := binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Add(p, i)), 8))
			del := x ^ 0x7f*lo
			if ((x-0x20*lo)&^x|(del-lo)&^del|x)&hi == 0 {
				continue
			}
			for j := i; j < i+8; j++ {
				if !valueByte[v[j]] {
					return false
				}
			}
		}
	}
	for ; i < len(v); i++ {
		if !valueByte[v[i]] {
			return false
		}
	}
	return true
}

// trimBlanks is strings.Trim(v, " \t") without its cutset machinery.
func trimBlanks(v string) string {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

func plainMethod(m string) bool {
	if m == "" {
		return false
	}
	for i := 0; i < len(m); i++ {
		if m[i] < 'A' || m[i] > 'Z' {
			return false
		}
	}
	return true
}

// plainURI: an origin-form target whose path url.URL keeps as is (no
// escapes, nothing EscapedPath would escape), so RawPath stays empty.
func plainURI(u string) bool {
	if len(u) == 0 || u[0] != '/' || strings.HasPrefix(u, "//") {
		return false
	}
	ok := &pathBytes
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c == '?':
			ok = &queryBytes
		case !ok[c]:
			return false
		}
	}
	return true
}

// pathBytes and queryBytes are uriByte's answers as tables.
var (
	pathBytes  = byteTable(func(c byte) bool { return uriByte(c, false) })
	queryBytes = byteTable(func(c byte) bool { return uriByte(c, true) })
)

// uriByte reports whether a plain target may hold c in its path or, with
// inQuery, after its '?' (which uriByte does not judge).
func uriByte(c byte, inQuery bool) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
	case strings.IndexByte("-._~$&+,;=:@/", c) >= 0:
	case inQuery && strings.IndexByte("!'()*%", c) >= 0:
	default:
		return false
	}
	return true
}

func digits(s string) bool {
	if s == "" || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int64 {
	var n int64
	for i := 0; i < len(s); i++ {
		n = n*10 + int64(s[i]-'0')
	}
	return n
}

// commonKeys interns the header names clients send most, in the spellings
// they use, so canonicalising them allocates nothing.
var commonKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"Host", "Content-Type", "Content-Length", "Connection", "Accept", "User-Agent",
		"Accept-Encoding", "Transfer-Encoding", "Expect", "Upgrade", "Traceparent", "Tracestate", "Baggage",
		"X-Request-Id", "X-Svc-Api-Key", "X-Svc-Auth-Token", "Authorization", "Sec-Websocket-Key",
		"Sec-Websocket-Version", "Sec-Websocket-Protocol", "Sec-Websocket-Extensions", "Origin"} {
		m[k] = k
		m[strings.ToLower(k)] = k
	}
	return m
}()

func canonical(name string) string {
	if k, ok := commonKeys[name]; ok {
		return k
	}
	return textproto.CanonicalMIMEHeaderKey(name)
}
