package redisconn

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Node is one server that holds a lock instance's keys: a standalone master, one primary shard
// of a cluster, or the master Sentinel names now.
type Node struct {
	// Addr is host:port, as the cluster or the sentinels announce it.
	Addr string
	// Client talks to this node only (for a Sentinel-managed master: the failover client, which
	// follows the master to its next address).
	Client redis.UniversalClient
}

// Nodes returns the servers that hold the master's keys now: the master itself; every primary
// of a cluster (by address), from the cluster's current layout; the master the sentinels name.
// A cluster or Sentinel that cannot be asked is an error explained by Explain.
func (m Master) Nodes(ctx context.Context) ([]Node, error) {
	switch m.KindOf() {
	case Cluster:
		cc, ok := m.Client.(*redis.ClusterClient)
		if !ok {
			return nil, fmt.Errorf("cluster master %s has a %T client", m.Name, m.Client)
		}
		var mu sync.Mutex
		var out []Node
		err := cc.ForEachMaster(ctx, func(_ context.Context, c *redis.Client) error {
			mu.Lock()
			out = append(out, Node{Addr: c.Options().Addr, Client: c})
			mu.Unlock()
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Addr < out[j].Addr })
		return out, nil
	case Sentinel:
		addr, err := m.sentinel.masterAddr(ctx)
		if err != nil {
			return nil, err
		}
		return []Node{{Addr: addr, Client: m.Client}}, nil
	}
	return []Node{{Addr: m.Addr, Client: m.Client}}, nil
}

// NodeForKey returns the address of the node that holds key: the shard owning its slot in a
// cluster (from the client's view of the layout, no I/O once it is loaded), else the master's
// only node. It is "" when that cannot be told.
func (m Master) NodeForKey(ctx context.Context, key string) string {
	if cc, ok := m.Client.(*redis.ClusterClient); ok {
		c, err := cc.MasterForKey(ctx, key)
		if err != nil {
			return ""
		}
		return c.Options().Addr
	}
	return ""
}

// SentinelState is what the sentinels of a Sentinel-managed master say about it.
type SentinelState struct {
	MasterName string `json:"masterName"`
	Master     string `json:"master"`    // host:port of the current master
	Replicas   int    `json:"replicas"`  // replicas the sentinels know (num-slaves)
	Sentinels  int    `json:"sentinels"` // sentinels watching it, the one asked included
	Quorum     int    `json:"quorum"`    // sentinels that must agree the master is down
	Flags      string `json:"flags"`     // the master's flags (master, s_down, o_down, ...)
	Asked      string `json:"asked"`     // the sentinel that answered
}

// Sentinel returns what the first sentinel to answer says about the master. ok is false for a
// master that is not Sentinel-managed.
func (m Master) Sentinel(ctx context.Context) (st SentinelState, ok bool, err error) {
	if m.sentinel == nil {
		return SentinelState{}, false, nil
	}
	st, err = m.sentinel.state(ctx)
	return st, true, err
}

// sentinelSet asks the sentinels of one master, in the order given, until one answers.
type sentinelSet struct {
	name    string
	clients []*redis.SentinelClient
	addrs   []string
}

func newSentinelSet(opt *redis.FailoverOptions) *sentinelSet {
	s := &sentinelSet{name: opt.MasterName, addrs: opt.SentinelAddrs}
	for _, a := range opt.SentinelAddrs {
		s.clients = append(s.clients, redis.NewSentinelClient(&redis.Options{
			Addr: a, Username: opt.SentinelUsername, Password: opt.SentinelPassword, TLSConfig: opt.TLSConfig,
			DialTimeout: opt.DialTimeout, ReadTimeout: opt.ReadTimeout, WriteTimeout: opt.WriteTimeout,
			MaxRetries: -1, DialerRetries: 1, ContextTimeoutEnabled: true, PoolSize: 2,
		}))
	}
	return s
}

func (s *sentinelSet) close() {
	for _, c := range s.clients {
		_ = c.Close()
	}
}

// ErrNoSuchMaster says the sentinels answered but monitor no master of that name.
var ErrNoSuchMaster = errors.New("the sentinels monitor no master of that name")

// ask calls fn on each sentinel in turn and returns the first answer.
func (s *sentinelSet) ask(ctx context.Context, fn func(*redis.SentinelClient) error) (string, error) {
	var errs []error
	for i, c := range s.clients {
		err := fn(c)
		if err == nil {
			return s.addrs[i], nil
		}
		if errors.Is(err, redis.Nil) || isNoSuchMaster(err) {
			return s.addrs[i], fmt.Errorf("sentinel %s: master %q: %w", s.addrs[i], s.name, ErrNoSuchMaster)
		}
		errs = append(errs, fmt.Errorf("sentinel %s: %w", s.addrs[i], err))
		if ctx.Err() != nil {
			break
		}
	}
	return "", fmt.Errorf("no sentinel answered: %w", errors.Join(errs...))
}

func isNoSuchMaster(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && (re.Error() == "ERR No such master with that name" || re.Error() == "ERR No such master with specified name.")
}

func (s *sentinelSet) masterAddr(ctx context.Context) (string, error) {
	var addr string
	_, err := s.ask(ctx, func(c *redis.SentinelClient) error {
		hp, err := c.GetMasterAddrByName(ctx, s.name).Result()
		if err != nil {
			return err
		}
		if len(hp) != 2 {
			return fmt.Errorf("unexpected reply %q", hp)
		}
		addr = net.JoinHostPort(hp[0], hp[1])
		return nil
	})
	return addr, err
}

func (s *sentinelSet) state(ctx context.Context) (SentinelState, error) {
	st := SentinelState{MasterName: s.name}
	asked, err := s.ask(ctx, func(c *redis.SentinelClient) error {
		m, err := c.Master(ctx, s.name).Result()
		if err != nil {
			return err
		}
		if len(m) == 0 {
			return redis.Nil
		}
		st.Master = net.JoinHostPort(m["ip"], m["port"])
		st.Replicas, _ = strconv.Atoi(m["num-slaves"])
		others, _ := strconv.Atoi(m["num-other-sentinels"])
		st.Sentinels = others + 1
		st.Quorum, _ = strconv.Atoi(m["quorum"])
		st.Flags = m["flags"]
		return nil
	})
	st.Asked = asked
	return st, err
}
