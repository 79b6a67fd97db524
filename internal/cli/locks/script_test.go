package locks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-redsync/redsync/v4"
	redsyncredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/osctl/osctl/internal/cli"
	"github.com/osctl/osctl/internal/testenv"
	"github.com/osctl/osctl/pkg/redisproc"
)

func TestMain(m *testing.M) {
	testscript.Main(cleaningUp{m}, map[string]func(){
		"osctl": func() { os.Exit(cli.Main()) },
	})
}

// cleaningUp removes the osctl binary the serve-metrics tests built once the tests ran.
type cleaningUp struct{ m *testing.M }

func (c cleaningUp) Run() int {
	defer testenv.CleanupBinary()
	return c.m.Run()
}

// scriptPassword is the password of the $RPW server; scripts assert it is never printed.
const scriptPassword = "Sup3r-S3cret-pw"

// TestScripts runs the txtar scripts in testdata against the real command tree. Each script
// gets three fresh redis-server masters ($R1 $R2 $R3), one that needs scriptPassword ($RPW,
// $RPW_ADDR, $PASSWORD), and a URL where nothing listens ($DEAD).
func TestScripts(t *testing.T) {
	_, err := redisproc.Path()
	testenv.Require(t, err == nil, "redis-server ("+redisproc.InstallHint+")")
	testscript.Run(t, testscript.Params{
		Dir:   "testdata",
		Setup: setup,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"redis":      cmdRedis,
			"redsync":    cmdRedsync,
			"killredis":  cmdKillRedis,
			"age":        cmdAge,
			"jsonvalid":  cmdJSONValid,
			"jsonlcount": cmdJSONLCount,
		},
	})
}

func setup(env *testscript.Env) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	servers := map[string]*redisproc.Server{}
	start := func(name string, opts ...func(*redisproc.Options)) error {
		dir, err := os.MkdirTemp("", "osctl-script-redis-")
		if err != nil {
			return err
		}
		env.Defer(func() { os.RemoveAll(dir) })
		o := redisproc.Options{Dir: dir}
		for _, f := range opts {
			f(&o)
		}
		s, err := redisproc.Start(ctx, o)
		if err != nil {
			return err
		}
		env.Defer(s.Kill)
		servers[name] = s
		return nil
	}
	for _, n := range []string{"1", "2", "3"} {
		if err := start(n); err != nil {
			return err
		}
		env.Setenv("R"+n, servers[n].URL())
	}
	if err := start("pw", testenv.WithPassword(scriptPassword)); err != nil {
		return err
	}
	env.Setenv("RPW", servers["pw"].URL())
	env.Setenv("RPW_ADDR", servers["pw"].Addr)
	env.Setenv("PASSWORD", scriptPassword)
	port, err := redisproc.FreePort()
	if err != nil {
		return err
	}
	env.Setenv("DEAD", fmt.Sprintf("redis://127.0.0.1:%d", port))
	env.Setenv("OSCTL_REDIS", "")
	env.Setenv("KUBECONFIG", "")
	env.Values["servers"] = servers
	return nil
}

func server(ts *testscript.TestScript, name string) *redisproc.Server {
	s, ok := ts.Value("servers").(map[string]*redisproc.Server)[name]
	if !ok {
		ts.Fatalf("no redis server %q (use 1, 2, 3 or pw)", name)
	}
	return s
}

func client(ts *testscript.TestScript, name string) *redis.Client {
	s := server(ts, name)
	o, _ := redis.ParseURL(s.URL())
	c := redis.NewClient(o)
	ts.Defer(func() { c.Close() })
	return c
}

// arg unquotes a Go-quoted argument ("a\x01b"), so scripts can write odd bytes.
func arg(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// cmdRedis runs one command on servers: redis 1,2,3 SET k v PX 9000. The reply goes to stdout.
func cmdRedis(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: redis SERVER[,SERVER...] COMMAND [ARG...]")
	}
	for _, name := range strings.Split(args[0], ",") {
		cmd := make([]any, len(args)-1)
		for i, a := range args[1:] {
			cmd[i] = arg(a)
		}
		res, err := client(ts, name).Do(context.Background(), cmd...).Result()
		if err != nil && err != redis.Nil {
			if !neg {
				ts.Fatalf("redis %s %v: %v", name, args[1:], err)
			}
			continue
		}
		if neg {
			ts.Fatalf("redis %s %v succeeded", name, args[1:])
		}
		fmt.Fprintln(ts.Stdout(), res)
	}
}

// cmdRedsync takes a lock with redsync on servers: redsync 1,2,3 KEY EXPIRY.
func cmdRedsync(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: redsync SERVERS KEY EXPIRY")
	}
	d, err := time.ParseDuration(args[2])
	ts.Check(err)
	var pools []redsyncredis.Pool
	for _, name := range strings.Split(args[0], ",") {
		pools = append(pools, goredis.NewPool(client(ts, name)))
	}
	mu := redsync.New(pools...).NewMutex(args[1], redsync.WithExpiry(d), redsync.WithTries(1))
	ts.Check(mu.Lock())
	fmt.Fprintln(ts.Stdout(), mu.Value())
}

// cmdKillRedis kills a server: killredis 2.
func cmdKillRedis(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		server(ts, a).Kill()
	}
}

// cmdAge sets a file's modification time into the past: age FILE DURATION.
func cmdAge(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: age FILE DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	at := time.Now().Add(-d)
	ts.Check(os.Chtimes(ts.MkAbs(args[0]), at, at))
}

// cmdJSONValid checks that the last command's stdout is one JSON document.
func cmdJSONValid(ts *testscript.TestScript, neg bool, args []string) {
	var v any
	if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &v); err != nil {
		ts.Fatalf("stdout is not JSON: %v", err)
	}
}

// cmdJSONLCount checks that stdout is N lines of JSON objects: jsonlcount N.
func cmdJSONLCount(ts *testscript.TestScript, neg bool, args []string) {
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	lines := strings.Split(strings.TrimRight(ts.ReadFile("stdout"), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		lines = nil
	}
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			ts.Fatalf("line %q is not a JSON object: %v", l, err)
		}
	}
	if len(lines) != want {
		ts.Fatalf("%d JSON lines, want %d", len(lines), want)
	}
}
