package events

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// unblockTimeout bounds the CLIENT UNBLOCK sent when Run's context ends.
const unblockTimeout = time.Second

// blockingReader runs the consumer's blocking XREADGROUP on a connection of
// its own whose client id it knows. go-redis does not interrupt a blocked
// command when its context is cancelled, so without this Run (and a
// service's Close) waited out the rest of the Block; with it, the end of the
// context sends CLIENT UNBLOCK for that id and the read returns at once, as
// if its Block had passed.
type blockingReader struct {
	rdb   *redis.Client
	conn  *redis.Conn
	id    int64
	plain bool // the server has no CLIENT ID
}

// read sends XREADGROUP on the reader's connection, opening it first if
// needed. After an error the connection is dropped and the next read opens
// a new one (a Redis restart gives it a new id).
func (r *blockingReader) read(ctx context.Context, a *redis.XReadGroupArgs) ([]redis.XStream, error) {
	if r.conn == nil && !r.plain {
		if err := r.open(ctx); err != nil {
			return nil, err
		}
	}
	if r.plain {
		return r.rdb.XReadGroup(ctx, a).Result()
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	unblocked := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(unblocked)
		r.unblock(r.id)
	})
	// An unblock under way finishes before Run returns and the caller
	// closes the client under it.
	defer func() {
		if !stop() {
			<-unblocked
		}
	}()
	// Not ctx itself (see open): the unblock ends the read, Block bounds it.
	res, err := r.conn.XReadGroup(context.WithoutCancel(ctx), a).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		r.close()
	}
	return res, err
}

func (r *blockingReader) open(ctx context.Context) error {
	conn := r.rdb.Conn()
	// Not ctx: go-redis drops a connection noisily when a command's
	// context is cancelled; the client's read timeout bounds this one.
	id, err := conn.ClientID(context.WithoutCancel(ctx)).Result()
	if err != nil {
		_ = conn.Close()
		// A server without CLIENT ID (miniredis, the embedded Redis of
		// make run) is read from the shared pool: a stop waits a Block.
		var reply redis.Error
		if errors.As(err, &reply) {
			r.plain = true
			return nil
		}
		return err
	}
	r.conn, r.id = conn, id
	return nil
}

// unblock ends a read of client id early. A context ending
// between Run's check and the server blocking the read is not seen: that
// read then ends after its Block, as every read did before.
func (r *blockingReader) unblock(id int64) {
	ctx, cancel := context.WithTimeout(context.Background(), unblockTimeout)
	defer cancel()
	_ = r.rdb.ClientUnblock(ctx, id).Err()
}

func (r *blockingReader) close() {
	if r.conn != nil {
		_ = r.conn.Close()
		r.conn = nil
	}
}
