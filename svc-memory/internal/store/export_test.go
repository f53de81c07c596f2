package store

// SetPointWrites lets tests run the MongoDB code paths on FerretDB too
// (FerretDB answers them correctly, only by scanning).
func (s *Judgments) SetPointWrites(on bool) { s.pointWrites = on }
