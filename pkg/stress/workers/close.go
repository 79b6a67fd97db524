package workers

import (
	"context"
	"sync"
	"time"
)

// closeWait is how long each worker may take to end after its bye before its process is closed.
const closeWait = 5 * time.Second

// closeAll ends every worker at once, each on its own: its bye, up to wait for its process to end,
// then its process closed. No worker waits for another's, so closing K workers takes one
// worker's time (wait, and Proc.Close's own bound), not K times that; a bye that cannot be
// written (a stuck stream) holds nobody up either.
func closeAll(conns []*conn, wait time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.end(ctx)
		}()
	}
	wg.Wait()
}

// end says bye (unless the worker is lost), waits until its process ends or ctx does, and
// closes it. A bye still being written when ctx ends is cut short by the close.
func (c *conn) end(ctx context.Context) {
	bye := make(chan struct{})
	go func() {
		defer close(bye)
		if !c.isLost() {
			_ = c.send(&frame{T: tBye})
		}
	}()
	select {
	case <-bye:
		select {
		case <-c.proc.Done():
		case <-ctx.Done():
		}
	case <-ctx.Done():
	}
	c.close()
}
