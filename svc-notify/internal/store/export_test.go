package store

// SetPointReads lets tests run the MongoDB code paths on FerretDB too
// (FerretDB answers them correctly, only by scanning).
func (m *Mongo) SetPointReads(on bool) { m.pointReads = on }

// FailAfterFeeds makes SaveNotification fail after writing the feed
// entries, before the notification (nil: normal).
func (m *Mongo) FailAfterFeeds(err error) { m.failAfterFeeds = err }
