//! OpenSSL's names of the hashes redc-rsa offers, both ways: the names
//! the `digest` and `mgf1-digest` parameters bring, and the names the
//! contexts answer with.

use core::ffi::CStr;
use redc_rsa::HashAlg;

/// OpenSSL's name of a hash, for the `get_ctx_params` answers.
pub(crate) fn openssl_name(md: HashAlg) -> &'static CStr {
    match md {
        HashAlg::Sha1 => c"SHA1",
        HashAlg::Sha224 => c"SHA224",
        HashAlg::Sha256 => c"SHA256",
        HashAlg::Sha384 => c"SHA384",
        HashAlg::Sha512 => c"SHA512",
        HashAlg::Sha512_224 => c"SHA512-224",
        HashAlg::Sha512_256 => c"SHA512-256",
        HashAlg::Sha3_224 => c"SHA3-224",
        HashAlg::Sha3_256 => c"SHA3-256",
        HashAlg::Sha3_384 => c"SHA3-384",
        HashAlg::Sha3_512 => c"SHA3-512",
        HashAlg::Shake128 => c"SHAKE128",
        HashAlg::Shake256 => c"SHAKE256",
    }
}

/// A hash by OpenSSL's name for it.
pub(crate) fn hash_named(name: &str) -> Result<HashAlg, String> {
    HashAlg::from_name(name).ok_or_else(|| format!("digest {name} is not supported"))
}
