package main

import "time"

// callTimeout bounds one call. A search or a 100-record add takes
// milliseconds to a few seconds on the embedded store; a call still
// running after this long means the system is stuck, not slow.
const callTimeout = 2 * time.Minute

// searchReply is result of /v2/memory/search.
type searchReply struct {
	Results []struct {
		RecordID string `json:"recordId"`
	} `json:"results"`
	TotalInScope    *int64   `json:"totalInScope"`
	SearchLatencyMs *float64 `json:"searchLatencyMs"`
}

// queryPage is result of /v2/memory/judgments/query.
type queryPage struct {
	Results []struct {
		RecordID string `json:"recordId"`
	} `json:"results"`
	NextPageToken *string `json:"nextPageToken"`
}
