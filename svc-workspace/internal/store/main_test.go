package store_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
