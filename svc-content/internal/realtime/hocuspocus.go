package realtime
import "net/http"
// ServeHocuspocus placeholder.
func (h *Hub) ServeHocuspocus(w http.ResponseWriter, r *http.Request) {}
