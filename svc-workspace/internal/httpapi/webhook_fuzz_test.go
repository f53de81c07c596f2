package httpapi

import (
	"testing"

	"github.com/opencollab/backend/pkg/api"
)

// FuzzWebhookRequestDecode feeds outside bytes to the decoders of the
// webhook configuration and endpoint requests (the bodies of
// advancedwebhookconfig/update and advancedwebhook/endpoints/create and
// update): any refusal is a 4xx error envelope, never a panic or a 500.
func FuzzWebhookRequestDecode(f *testing.F) {
	for _, seed := range []string{
		`{"data":{"isEnabled":true,"encryptData":false,"publicKey":"MIIB"}}`,
		`{"data":{"url":"https://hooks.example.com/in","filterTypes":["activity.add"],"metadata":{"a":"b"}}}`,
		`{"data":{"endpointId":"ep_1","url":"http://[fd00::1]/x","uid":"u"}}`,
		`{"data":{"url":"http://localhost","rateLimit":-1,"secret":"whsec_x"}}`,
		`{"data":{"isEnabled":"yes"}}`, `{"data":[]}`, `{}`, `[`, `{"data":{"url":1e999}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		decoders := map[string]func() error{
			"config update": func() error { var r updateWebhookConfigRequest; return api.DecodeBytes(body, &r, api.DecodeOptions{}) },
			"endpoint create": func() error {
				var r createEndpointRequest
				if err := api.DecodeBytes(body, &r, api.DecodeOptions{}); err != nil {
					return err
				}
				return refuseSecret(r.Secret)
			},
			"endpoint update": func() error {
				var r updateEndpointRequest
				if err := api.DecodeBytes(body, &r, api.DecodeOptions{}); err != nil {
					return err
				}
				_, err := r.changes()
				return err
			},
		}
		for name, decode := range decoders {
			err := decode()
			if err == nil {
				continue
			}
			e, ok := api.AsError(err)
			if code := api.HTTPStatus(e.Status); !ok || code < 400 || code >= 500 {
				t.Fatalf("%s of %q: %v (HTTP %d), want a 4xx API error", name, body, err, code)
			}
		}
	})
}
