#!/usr/bin/env bash
# Full TLS handshakes per second through HAProxy (Debian's, ssl-mode-async,
# one thread, pinned to CPU 0) under h2load (pinned to CPU 1), with the
# default provider and with redc preferred (OPENSSL_CONF, batch-wait-us at
# 1000 unless WAIT says), alternating, RUNS times each. Prints every run, then the
# medians of handshakes per second and of the server's CPU time (user +
# system, all its threads) per handshake. Not part of CI.
#
#   crates/redc-provider/scripts/haproxy-bench.sh [BITS [TLS [RUNS [CONNECTIONS [CLIENTS [WAIT]]]]]]
#
# BITS: the certificate's RSA key (2048); TLS: 1.3 or 1.2 (1.3); RUNS (3);
# CONNECTIONS a run (4000); CLIENTS at a time (64); WAIT: the provider's
# batch-wait-us (its default, 1000). Needs haproxy, h2load
# (apt-get install haproxy nghttp2-client), two CPUs, and the provider
# built: cargo build --release -p redc-provider.
set -euo pipefail
cd "$(dirname "$0")/../../.."
bits=${1:-2048} tls=${2:-1.3} runs=${3:-3} connections=${4:-4000} clients=${5:-64} wait=${6:-1000}
library="$PWD/target/release/libredc_provider.so"
[ -f "$library" ] || { echo "build the provider first: cargo build --release -p redc-provider" >&2; exit 2; }
case $tls in 1.2 | 1.3) ;; *) echo "TLS must be 1.2 or 1.3, not $tls" >&2; exit 2 ;; esac
dir=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$dir"' EXIT
openssl req -x509 -newkey "rsa:$bits" -nodes -keyout "$dir/key.pem" -out "$dir/cert.pem" \
  -subj /CN=localhost -days 1 2>/dev/null
cat "$dir/cert.pem" "$dir/key.pem" > "$dir/both.pem"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$dir/haproxy.cfg" <<EOF
global
  nbthread 1
  ssl-mode-async
  tune.ssl.cachesize 0
  ssl-default-bind-options no-tls-tickets
defaults
  mode http
  option httpclose
  timeout connect 5s
  timeout client 30s
  timeout server 30s
frontend tls
  bind 127.0.0.1:$port ssl crt $dir/both.pem ssl-min-ver TLSv$tls ssl-max-ver TLSv$tls
  http-request return status 200 content-type text/plain string "ok"
EOF
cat > "$dir/redc.cnf" <<EOF
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
redc = redc_sect
[default_sect]
activate = 1
[redc_sect]
module = $library
batch-wait-us = $wait
activate = 1
[evp_properties]
default_properties = ?provider=redc
EOF
tick=$(getconf CLK_TCK)
echo "RSA-$bits TLS $tls, $connections connections a run, $clients clients, batch-wait-us $wait; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq "$runs"); do
  for provider in default redc; do
    cnf=/dev/null
    [ $provider = redc ] && cnf="$dir/redc.cnf"
    OPENSSL_CONF=$cnf taskset -c 0 haproxy -db -f "$dir/haproxy.cfg" < /dev/null > "$dir/haproxy.log" 2>&1 &
    server=$!
    until (exec 3<> "/dev/tcp/127.0.0.1/$port") 2>/dev/null; do sleep 0.1; done
    before=$(awk '{print $14 + $15}' "/proc/$server/stat")
    out=$(taskset -c 1 h2load --h1 -n "$connections" -c "$clients" "https://127.0.0.1:$port/")
    after=$(awk '{print $14 + $15}' "/proc/$server/stat")
    kill "$server"; wait "$server" 2>/dev/null || true; server=
    grep -q "$connections succeeded, 0 failed" <<<"$out" || { echo "$out" >&2; exit 1; }
    rate=$(awk '/^finished in/ {print $4}' <<<"$out")
    cpu=$(awk -v t="$((after - before))" -v hz="$tick" -v n="$connections" 'BEGIN {printf "%.0f", t / hz / n * 1e6}')
    echo "run $run $provider: $rate handshakes/s, server CPU $cpu µs a handshake"
    echo "$provider $rate $cpu" >> "$dir/runs"
  done
done
for provider in default redc; do
  median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
  rate=$(awk -v p=$provider '$1 == p {print $2}' "$dir/runs" | median)
  cpu=$(awk -v p=$provider '$1 == p {print $3}' "$dir/runs" | median)
  echo "median $provider: $rate handshakes/s, server CPU $cpu µs a handshake"
done
