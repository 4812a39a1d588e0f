package devserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/log"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

// clusterName is the name of the server's one cluster.
const clusterName = "active"

// Config says where a server listens, what it stores and which namespaces
// it has.
type Config struct {
	// Addr is the frontend's host:port, an IP address and a port; port 0
	// takes a free port. An unspecified address (0.0.0.0, ::) listens on
	// every interface and is dialed on 127.0.0.1. The other services
	// listen on free ports of 127.0.0.1.
	Addr string
	// Namespaces are registered before the server starts; a namespace that
	// the database already has is kept.
	Namespaces []string
	// DBFile is the SQLite file that holds the server's state across
	// restarts, created with its schema if it does not exist; empty keeps
	// the state in memory, gone when the server stops.
	DBFile string
	// Logger receives the server's logs; nil discards them.
	Logger log.Logger
}

// Server is a running server.
type Server struct {
	server   temporal.Server
	addr     string
	hostPort string
}

// startAttempts is how many times Start starts the server on newly picked
// ports when a port it picked was taken by another listener before the
// server bound it.
const startAttempts = 5

// Start starts a server and returns once its frontend reports itself
// healthy and describes every namespace of cfg. The ports it picks (the
// frontend's when cfg.Addr's is 0, and every other listener's) are free
// when picked and bound by the server later: when another listener takes
// one meanwhile, Start starts again on new ports, up to startAttempts
// times. A port cfg.Addr names that is in use is an error at once. A start
// that fails while the server is built leaves the listeners it had bound
// open until the process exits: temporal.NewServer returns nothing to stop.
func Start(cfg Config) (*Server, error) { return start(cfg, freePort) }

// start is Start with the function that picks free ports.
func start(cfg Config, pick func() (int, error)) (*Server, error) {
	host, portText, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("devserver: address %q: %w", cfg.Addr, err)
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return nil, fmt.Errorf("devserver: address %q: the host must be an IP address", cfg.Addr)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("devserver: address %q: bad port", cfg.Addr)
	}
	for attempt := 1; ; attempt++ {
		srv, err := startOnce(cfg, ip, port, pick)
		var fatal *fatalError
		if err == nil || !errors.As(err, &fatal) || !errors.Is(fatal, syscall.EADDRINUSE) {
			return srv, err
		}
		if port != 0 && fatal.port() == port {
			return nil, fmt.Errorf("devserver: address %q is in use: %w", cfg.Addr, err)
		}
		if attempt == startAttempts {
			return nil, fmt.Errorf("devserver: %d starts, each on ports picked free that another listener took before the server bound them: %w", attempt, err)
		}
	}
}

// startOnce starts a server on the frontend address ip:port, its other
// ports (and the frontend's when port is 0) taken from pick.
func startOnce(cfg Config, ip net.IP, port int, pick func() (int, error)) (*Server, error) {
	var err error
	if port == 0 {
		if port, err = pick(); err != nil {
			return nil, err
		}
	}
	dialIP := ip.String()
	if ip.IsUnspecified() {
		dialIP = "127.0.0.1"
	}
	hostPort := net.JoinHostPort(dialIP, strconv.Itoa(port))

	store, err := sqlStore(cfg.DBFile)
	if err != nil {
		return nil, err
	}
	services, err := serviceConfigs(ip.String(), port, pick)
	if err != nil {
		return nil, err
	}
	sc := &config.Config{
		Global: config.Global{
			Membership: config.Membership{MaxJoinDuration: 30 * time.Second, BroadcastAddress: "127.0.0.1"},
		},
		Persistence: config.Persistence{
			DefaultStore:     sqliteplugin.PluginName,
			VisibilityStore:  sqliteplugin.PluginName,
			NumHistoryShards: 1,
			DataStores:       map[string]config.DataStore{sqliteplugin.PluginName: {SQL: store}},
		},
		ClusterMetadata: &cluster.Config{
			FailoverVersionIncrement: 10,
			MasterClusterName:        clusterName,
			CurrentClusterName:       clusterName,
			ClusterInformation: map[string]cluster.ClusterInformation{
				clusterName: {Enabled: true, InitialFailoverVersion: 1, RPCAddress: hostPort},
			},
		},
		DCRedirectionPolicy: config.DCRedirectionPolicy{Policy: "noop"},
		Services:            services,
		Archival: config.Archival{
			History:    config.HistoryArchival{State: "disabled"},
			Visibility: config.VisibilityArchival{State: "disabled"},
		},
		NamespaceDefaults: config.NamespaceDefaults{Archival: config.ArchivalNamespaceDefaults{
			History:    config.HistoryArchivalNamespaceDefaults{State: "disabled"},
			Visibility: config.VisibilityArchivalNamespaceDefaults{State: "disabled"},
		}},
		// The server's own clients (its worker service) dial the frontend.
		PublicClient: config.PublicClient{HostPort: hostPort},
	}
	if err := registerNamespaces(store, cfg.Namespaces); err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = log.NewNoopLogger()
	}
	var srv temporal.Server
	if err := recoverFatal(func() (err error) {
		srv, err = temporal.NewServer(
			temporal.WithConfig(sc),
			temporal.ForServices(temporal.DefaultServices),
			temporal.WithLogger(fatalLogger{logger}),
		)
		return err
	}); err != nil {
		return nil, fmt.Errorf("devserver: %w", err)
	}
	if err := recoverFatal(srv.Start); err != nil {
		_ = recoverFatal(srv.Stop) // the services that started
		return nil, fmt.Errorf("devserver: start: %w", err)
	}
	if err := ready(hostPort, cfg.Namespaces); err != nil {
		_ = srv.Stop()
		return nil, err
	}
	return &Server{server: srv, addr: net.JoinHostPort(ip.String(), strconv.Itoa(port)), hostPort: hostPort}, nil
}

// ready returns once the frontend on hostPort reports itself healthy and
// describes each namespace, within a minute.
func ready(hostPort string, namespaces []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	quiet := sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))
	c, err := client.NewLazyClient(client.Options{HostPort: hostPort, Logger: quiet})
	if err != nil {
		return fmt.Errorf("devserver: %w", err)
	}
	defer c.Close()
	for _, ns := range append([]string{""}, namespaces...) {
		for {
			if ns == "" {
				_, err = c.CheckHealth(ctx, &client.CheckHealthRequest{})
			} else {
				_, err = c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: ns})
			}
			if err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("devserver: the server on %s is not ready (namespace %q): %w", hostPort, ns, err)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}

// Addr is the address the frontend listens on, with the port it took.
func (s *Server) Addr() string { return s.addr }

// HostPort is the address clients dial: Addr, or 127.0.0.1 and its port
// when Addr is unspecified (0.0.0.0, ::).
func (s *Server) HostPort() string { return s.hostPort }

// Stop stops every service of the server.
func (s *Server) Stop() error { return s.server.Stop() }

// sqlStore returns the SQLite store of a database file, with its schema
// set up if the file is new, or of a database in memory when file is
// empty.
func sqlStore(file string) (*config.SQL, error) {
	store := &config.SQL{PluginName: sqliteplugin.PluginName, ConnectAttributes: map[string]string{}}
	if file == "" {
		// Each server has a database of its own, shared by its
		// connections only; the plugin sets its schema up.
		name := make([]byte, 8)
		if _, err := rand.Read(name); err != nil {
			return nil, err
		}
		store.DatabaseName = "devserver-" + hex.EncodeToString(name)
		store.ConnectAttributes["mode"] = "memory"
		store.ConnectAttributes["cache"] = "shared"
		return store, nil
	}
	store.DatabaseName = file
	store.ConnectAttributes["mode"] = "rwc"
	_, err := os.Stat(file)
	switch {
	case err == nil:
		return store, nil
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("devserver: database %w", err)
	}
	if _, err := os.Stat(filepath.Dir(file)); err != nil {
		return nil, fmt.Errorf("devserver: database %s: %w", file, err)
	}
	if err := sqlite.SetupSchema(store); err != nil {
		return nil, fmt.Errorf("devserver: database %s: schema: %w", file, err)
	}
	return store, nil
}

// registerNamespaces writes the namespaces the database lacks.
func registerNamespaces(store *config.SQL, names []string) error {
	var namespaces []*sqlite.NamespaceConfig
	for _, name := range names {
		ns, err := sqlite.NewNamespaceConfig(clusterName, name, false, nil)
		if err != nil {
			return fmt.Errorf("devserver: namespace %q: %w", name, err)
		}
		namespaces = append(namespaces, ns)
	}
	if err := sqlite.CreateNamespaces(store, namespaces...); err != nil {
		return fmt.Errorf("devserver: %w", err)
	}
	return nil
}

// serviceConfigs places the frontend on ip:port and the other services,
// and every membership listener, on ports of 127.0.0.1 that pick gives.
func serviceConfigs(ip string, port int, pick func() (int, error)) (map[string]config.Service, error) {
	services := map[string]config.Service{}
	for _, name := range temporal.DefaultServices {
		rpc := config.RPC{BindOnLocalHost: true}
		var err error
		if rpc.MembershipPort, err = pick(); err != nil {
			return nil, err
		}
		if name == "frontend" {
			rpc.GRPCPort, rpc.BindOnLocalHost, rpc.BindOnIP = port, false, ip
		} else if rpc.GRPCPort, err = pick(); err != nil {
			return nil, err
		}
		services[name] = config.Service{RPC: rpc}
	}
	return services, nil
}

// freePort returns a TCP port of 127.0.0.1 that is free now; the server
// binds it later, so another listener may take it meanwhile (Start starts
// again then).
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("devserver: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
