//! The inputs of a batch of signatures or verifications, for the typed
//! keys of redc-rsa (`RsaPrivateKey::sign_batch`, ...) and redc-ffc
//! (`DsaPrivateKey::sign_batch`, ...).

use crate::HashAlg;
use std::borrow::Cow;

/// The inputs of a batch of signatures or verifications: messages, which
/// are hashed with the scheme's hash, or their precomputed digests (for
/// callers that hash elsewhere).
#[derive(Debug, Clone, Copy)]
pub enum Batch<'a> {
    /// Messages, hashed here.
    Messages(&'a [&'a [u8]]),
    /// Digests of messages: RFC 8017's `mHash` / `H` (`hLen` bytes each),
    /// FIPS 186-4's `Hash(M)` (truncated to `N` bits by the signature).
    Digests(&'a [&'a [u8]]),
}

impl<'a> Batch<'a> {
    /// The number of items.
    pub fn len(&self) -> usize {
        match self {
            Batch::Messages(items) | Batch::Digests(items) => items.len(),
        }
    }

    /// Whether there are no items.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each item's digest with `hash`: the messages hashed, the digests as
    /// they are.
    pub fn digests(&self, hash: HashAlg) -> Vec<Cow<'a, [u8]>> {
        match *self {
            Batch::Messages(msgs) => msgs.iter().map(|m| Cow::Owned(hash.digest(m))).collect(),
            Batch::Digests(digests) => digests.iter().map(|&d| Cow::Borrowed(d)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_hashed_and_digests_kept() {
        let items: [&[u8]; 2] = [b"a", b"bc"];
        assert_eq!(Batch::Messages(&items).len(), 2);
        assert!(Batch::Digests(&[]).is_empty());
        let hashed = Batch::Messages(&items).digests(HashAlg::Sha256);
        assert_eq!(&*hashed[1], HashAlg::Sha256.digest(b"bc"));
        let kept = Batch::Digests(&items).digests(HashAlg::Sha256);
        assert_eq!(&*kept[0], b"a");
    }
}
