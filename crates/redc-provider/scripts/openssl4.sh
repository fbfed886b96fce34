#!/usr/bin/env bash
# Builds OpenSSL 4.0.3's shared libraries and `openssl` command from the
# source the `openssl-src` crate ships (the workspace's `openssl-src`
# version, fetched by cargo), into target/openssl4/ (install/bin/openssl,
# install/lib/libcrypto.so.4, ...), for the provider's tests and bench
# against OpenSSL 4. Reused between runs: it does nothing when
# target/openssl4/install/bin/openssl exists. Not part of CI (about 10
# minutes on two cores).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out="$PWD/target/openssl4"
if [ -x "$out/install/bin/openssl" ]; then
  echo "$out/install"
  exit 0
fi
cargo fetch -q
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/openssl-src-400.*/openssl | sort -V | tail -1)
rm -rf "$out/src"
mkdir -p "$out"
cp -r "$src" "$out/src"
cd "$out/src"
# The crate's copy leaves out util/mkdef.pl, which writes the shared
# libraries' linker version scripts; this one exports every symbol under
# one version, enough for a build that only this repository's tests use.
cat > util/mkdef.pl <<'PERL'
#!/usr/bin/env perl
print "OPENSSL_4.0.0 {\n    global:\n        *;\n};\n";
PERL
./Configure shared no-legacy no-tests no-docs --prefix="$out/install" --libdir=lib >"$out/configure.log"
make -j"$(nproc)" >"$out/make.log" 2>&1
make install_sw >"$out/install.log" 2>&1
echo "$out/install"
