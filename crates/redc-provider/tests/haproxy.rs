//! A real TLS server end to end: HAProxy from the system's packages, with
//! `ssl-mode-async`, loading redc through `OPENSSL_CONF`, terminates TLS
//! 1.3 and TLS 1.2 (ECDHE-RSA) with an RSA-2048 certificate on loopback
//! under `h2load`, every connection a full handshake (no tickets, no
//! session cache). Its handshakes' signatures pause their async jobs in
//! redc's batches; clients that hang up while theirs is paused leave the
//! server serving. Both programs are Debian's: `apt-get install haproxy
//! nghttp2-client`.

mod cli;

use cli::{Checked, config, free_port, run, scratch, self_signed};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// HAProxy on two loopback ports (TLS 1.3 only, TLS 1.2 only), killed when
/// dropped.
struct Server {
    child: Child,
    admin: PathBuf,
    tls13: u16,
    tls12: u16,
}

impl Server {
    /// HAProxy with one thread and `ssl-mode-async`, its OpenSSL
    /// configured by `cnf`, answering every HTTPS request with a short
    /// body and closing the connection; ready when both ports accept.
    fn start(name: &str, cnf: &Path) -> Server {
        let dir = scratch();
        if !dir.join("haproxy.pem").exists() {
            self_signed(dir, "two.pem", "/CN=localhost", "haproxy.crt").ok();
            let mut both = std::fs::read(dir.join("haproxy.crt")).unwrap();
            both.extend(std::fs::read(dir.join("two.pem")).unwrap());
            std::fs::write(dir.join("haproxy.pem"), both).unwrap();
        }
        let (tls13, tls12) = (free_port(), free_port());
        let admin = dir.join(format!("{name}.sock"));
        let pem = dir.join("haproxy.pem");
        let pem = pem.display();
        let answer = r#"http-request return status 200 content-type text/plain string "ok""#;
        let text = format!(
            "global\n  nbthread 1\n  ssl-mode-async\n  tune.ssl.cachesize 0\n  \
             ssl-default-bind-options no-tls-tickets\n  stats socket {}\n\
             defaults\n  mode http\n  option httpclose\n  timeout connect 5s\n  \
             timeout client 10s\n  timeout server 10s\n\
             frontend tls13\n  bind 127.0.0.1:{tls13} ssl crt {pem} ssl-min-ver TLSv1.3\n  {answer}\n\
             frontend tls12\n  bind 127.0.0.1:{tls12} ssl crt {pem} ssl-min-ver TLSv1.2 ssl-max-ver TLSv1.2\n  {answer}\n",
            admin.display()
        );
        let file = dir.join(format!("{name}.cfg"));
        std::fs::write(&file, text).unwrap();
        let child = Command::new("haproxy")
            .arg("-db")
            .arg("-f")
            .arg(&file)
            .env("OPENSSL_CONF", cnf)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("haproxy runs (apt-get install haproxy)");
        let mut server = Server {
            child,
            admin,
            tls13,
            tls12,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        let ready = |port| std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
        while !(ready(tls13) && ready(tls12) && server.admin.exists()) {
            assert!(server.alive(), "haproxy exited at start");
            assert!(Instant::now() < deadline, "haproxy never listened");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// HAProxy's answer to `command` on its admin socket.
    fn ask(&self, command: &str) -> String {
        let mut socket = UnixStream::connect(&self.admin).unwrap();
        socket.write_all(format!("{command}\n").as_bytes()).unwrap();
        let mut answer = String::new();
        socket.read_to_string(&mut answer).unwrap();
        answer
    }

    /// The value of `field` in `show info`.
    fn info(&self, field: &str) -> u64 {
        let info = self.ask("show info");
        let line = info
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{field}: ")))
            .unwrap_or_else(|| panic!("no {field} in {info}"));
        line.trim().parse().unwrap()
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `h2load` over HTTP/1.1 making `requests` requests from `clients`
/// concurrent clients, each on a connection of its own (the server closes
/// every one); killed after a minute.
fn h2load(port: u16, requests: usize, clients: usize) -> Output {
    let mut child = Command::new("h2load")
        .args(["--h1", "-n", &requests.to_string(), "-c", &clients.to_string()])
        .arg(format!("https://127.0.0.1:{port}/"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("h2load runs (apt-get install nghttp2-client)");
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Asserts that `out` is h2load's report of `requests` requests, every one
/// answered, over `protocol`.
fn all_answered(out: &Output, requests: usize, protocol: &str) {
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let want =
        format!("requests: {requests} total, {requests} started, {requests} done, {requests} succeeded, 0 failed");
    assert!(text.contains(&want), "{text}");
    assert!(text.contains(&format!("TLS Protocol: {protocol}")), "{text}");
}

/// Under load (32 clients at a time, 400 connections a protocol), every
/// TLS 1.3 and TLS 1.2 handshake completes, as a full handshake, with
/// redc loaded and preferred by HAProxy's OpenSSL.
#[test]
fn haproxy_terminates_tls_through_redc_under_load() {
    let cnf = config("haproxy.cnf", "");
    let mut server = Server::start("load", &cnf);
    let providers = server.ask("show ssl providers");
    assert!(providers.contains("- redc"), "{providers}");
    let before = server.info("CumSslConns");
    for (port, protocol) in [(server.tls13, "TLSv1.3"), (server.tls12, "TLSv1.2")] {
        all_answered(&h2load(port, 400, 32), 400, protocol);
    }
    assert_eq!(server.info("CumSslConns") - before, 800);
    assert_eq!(server.info("SslFrontendSessionReuse_pct"), 0);
    assert!(server.alive());
}

/// With a batch delay of 300 ms, a lone handshake waits for its batch
/// (its signature paused its job in redc: the default provider answers in
/// about a millisecond), and clients that hang up while their handshake is
/// paused leave HAProxy serving the next, their connections released.
#[test]
fn paused_handshakes_wait_for_their_batch_and_survive_hang_ups() {
    let cnf = config("slow.cnf", "batch-wait-us = 300000");
    let mut server = Server::start("slow", &cnf);
    for (port, protocol) in [(server.tls13, "TLSv1.3"), (server.tls12, "TLSv1.2")] {
        let start = Instant::now();
        all_answered(&h2load(port, 1, 1), 1, protocol);
        assert!(start.elapsed() >= Duration::from_millis(300), "{:?}", start.elapsed());
    }
    for _ in 0..3 {
        let mut client = run(scratch(), &["s_client", "-connect"])
            .arg(format!("127.0.0.1:{}", server.tls13))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        client.kill().unwrap();
        client.wait().unwrap();
    }
    all_answered(&h2load(server.tls12, 1, 1), 1, "TLSv1.2");
    assert!(server.alive());
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.info("CurrConns") != 0 {
        assert!(Instant::now() < deadline, "{}", server.ask("show info"));
        std::thread::sleep(Duration::from_millis(50));
    }
}
