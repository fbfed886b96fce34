#!/usr/bin/env bash
# Regenerates the seed corpora fuzz/corpus/<target>/seed-* from the fixed keys
# (fuzz/keys), the library itself and the Wycheproof vectors:
#
#   fuzz/seeds.sh [WYCHEPROOF_DIR]   (default ../shared/vectors/wycheproof/testvectors_v1,
#                                     or REDC_VECTORS)
#
# The generator (fuzz/seeds, stable toolchain) is deterministic. Encrypted
# keys in the formats only OpenSSL writes here (other PRFs and ciphers, PBES1,
# PKCS#12 PBE) are added as openssl-* files when missing (OpenSSL salts them
# at random, so they are not rewritten). regression-* files are never touched.
set -euo pipefail
cd "$(dirname "$0")/.."

vectors=${1:-${REDC_VECTORS:-../shared/vectors/wycheproof/testvectors_v1}}
cargo run --quiet --release --manifest-path fuzz/Cargo.toml -p redc-fuzz-seeds -- fuzz/corpus "$vectors"

if ! command -v openssl >/dev/null 2>&1; then
  echo "seeds: no openssl command; the openssl-* seeds are left as they are" >&2
  exit 0
fi
key=fuzz/keys/rsa1024.pem
pass=pass:fuzz-password
while read -r name form args; do
  for target in key_read key_read_encrypted; do
    out=fuzz/corpus/$target/openssl-$name.$form
    [ -e "$out" ] && continue
    # shellcheck disable=SC2086
    if ! openssl pkcs8 -topk8 -in "$key" -passout "$pass" -outform "$form" $args >"$out" 2>/dev/null; then
      rm -f "$out"
      echo "seeds: this openssl cannot write $name; skipped" >&2
    fi
  done
done <<'LIST'
aes128-sha1 der -v2 aes-128-cbc -v2prf hmacWithSHA1 -iter 16
aes192-sha512 pem -v2 aes-192-cbc -v2prf hmacWithSHA512 -iter 1
aes256-sha224 der -v2 aes-256-cbc -v2prf hmacWithSHA224 -iter 3
des3 pem -v2 des3 -iter 1
scrypt pem -scrypt -scrypt_N 16 -scrypt_r 1 -scrypt_p 1
pbe-sha1-3des der -v1 PBE-SHA1-3DES -iter 1
LIST

# RSASSA-PSS keys (id-RSASSA-PSS), unrestricted and restricted, private
# and public, for key_read: OpenSSL's random keys, added when missing.
while read -r name opts; do
  out=fuzz/corpus/key_read/openssl-pss-$name
  [ -e "$out.pem" ] && continue
  # shellcheck disable=SC2086
  if openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:1024 $opts -out "$out.pem" 2>/dev/null; then
    openssl pkey -in "$out.pem" -pubout -outform DER -out "$out.pub.der"
  else
    rm -f "$out.pem"
    echo "seeds: this openssl cannot write RSA-PSS keys; skipped" >&2
  fi
done <<'LIST'
free
sha256 -pkeyopt rsa_pss_keygen_md:sha256 -pkeyopt rsa_pss_keygen_mgf1_md:sha256 -pkeyopt rsa_pss_keygen_saltlen:32
sha384 -pkeyopt rsa_pss_keygen_md:sha384 -pkeyopt rsa_pss_keygen_saltlen:48
LIST
