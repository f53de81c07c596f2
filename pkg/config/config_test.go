package config

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sethvargo/go-envconfig"
)

type sample struct {
	Addr    string        `env:"ADDR, default=:8080"`
	Secret  string        `env:"SECRET" mask:"true"`
	Timeout time.Duration `env:"TIMEOUT, default=5s"`
}

func (s *sample) Validate() error {
	if len(s.Secret) < 4 {
		return errors.New("SECRET must have at least 4 characters")
	}
	return nil
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr bool
		want    sample
	}{
		{"defaults and secret", map[string]string{"SECRET": "abcd"}, false, sample{":8080", "abcd", 5 * time.Second}},
		{"override", map[string]string{"SECRET": "abcd", "ADDR": "127.0.0.1:1", "TIMEOUT": "1m"}, false, sample{"127.0.0.1:1", "abcd", time.Minute}},
		{"validation fails", map[string]string{"SECRET": "x"}, true, sample{}},
		{"bad duration", map[string]string{"SECRET": "abcd", "TIMEOUT": "soon"}, true, sample{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got sample
			err := LoadFrom(context.Background(), &got, envconfig.MapLookuper(tt.env))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestMaskedHidesSecrets(t *testing.T) {
	m := Masked(&sample{Addr: ":1", Secret: "hunter2"})
	if m["SECRET"] != "***" || m["ADDR"] != ":1" {
		t.Fatalf("masked = %v", m)
	}
	if m := Masked(&sample{}); m["SECRET"] != "" {
		t.Fatalf("unset secret should print empty, got %q", m["SECRET"])
	}
}
