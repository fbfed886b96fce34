//! The named Diffie-Hellman groups: RFC 7919's `ffdhe2048` to `ffdhe8192`
//! and RFC 3526's MODP groups of 1536 to 8192 bits, each a safe prime
//! `p = 2q + 1` with generator 2. Every one of these primes is 7 mod 8, so
//! 2 is a square and generates the subgroup of order `q`: the subgroup
//! check `y^q = 1` applies to a peer's value in every group.
//!
//! Private exponents are sized as RFC 7919 §5.2 lists for the ffdhe groups
//! (225, 275, 325, 375, 400 bits) and as OpenSSL sizes them for the MODP
//! groups (200 to 400 bits, at least the lower ends of RFC 3526 §8's
//! ranges), so that `openssl genpkey` and `redc dh genkey` make keys of the
//! same size.

mod primes;

use crate::{ModP, Num, PublicModulus};
use std::sync::OnceLock;

/// One named group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// RFC 7919 `ffdhe2048`.
    Ffdhe2048,
    /// RFC 7919 `ffdhe3072`.
    Ffdhe3072,
    /// RFC 7919 `ffdhe4096`.
    Ffdhe4096,
    /// RFC 7919 `ffdhe6144`.
    Ffdhe6144,
    /// RFC 7919 `ffdhe8192`.
    Ffdhe8192,
    /// RFC 3526 group 5, 1536 bits.
    Modp1536,
    /// RFC 3526 group 14, 2048 bits.
    Modp2048,
    /// RFC 3526 group 15, 3072 bits.
    Modp3072,
    /// RFC 3526 group 16, 4096 bits.
    Modp4096,
    /// RFC 3526 group 17, 6144 bits.
    Modp6144,
    /// RFC 3526 group 18, 8192 bits.
    Modp8192,
}

/// A group's numbers: `p`, `q = (p - 1)/2`, `g = 2`, and `p`'s domain.
#[derive(Debug)]
pub struct GroupParams {
    /// The prime `p` and its Montgomery domain.
    pub p: PublicModulus<ModP>,
    /// The prime order of the subgroup, `(p - 1)/2`.
    pub q: Num,
    /// The generator, 2.
    pub g: Num,
}

impl Group {
    /// Every group, ffdhe first, each family by size.
    pub const ALL: [Group; 11] = [
        Group::Ffdhe2048,
        Group::Ffdhe3072,
        Group::Ffdhe4096,
        Group::Ffdhe6144,
        Group::Ffdhe8192,
        Group::Modp1536,
        Group::Modp2048,
        Group::Modp3072,
        Group::Modp4096,
        Group::Modp6144,
        Group::Modp8192,
    ];

    /// The name as OpenSSL spells it (`ffdhe2048`, `modp_2048`).
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// The group of an OpenSSL name (case-insensitive; `modp2048` also read).
    pub fn from_name(name: &str) -> Option<Group> {
        let name = name.to_ascii_lowercase();
        Group::ALL
            .into_iter()
            .find(|g| g.name() == name || g.name().replace('_', "") == name)
    }

    /// The size of `p` in bits.
    pub fn bits(self) -> usize {
        self.entry().1.len() * 4
    }

    /// The private exponent's length for this group (module docs).
    pub fn exponent_bits(self) -> usize {
        self.entry().2
    }

    /// The group's numbers (parsed once).
    pub fn params(self) -> &'static GroupParams {
        static PARAMS: [OnceLock<GroupParams>; 11] = [const { OnceLock::new() }; 11];
        let index = Group::ALL.iter().position(|g| *g == self).unwrap_or(0);
        PARAMS[index].get_or_init(|| {
            let p = Num::from_hex(self.entry().1).unwrap_or_else(|_| Num::zero());
            GroupParams {
                q: p.shr(1),
                g: Num::from_u64(2),
                p: PublicModulus::new(p).unwrap_or_else(|_| unreachable!("the named primes are odd")),
            }
        })
    }

    /// The named group whose prime and generator these are.
    pub fn from_numbers(p: &Num, g: &Num) -> Option<Group> {
        Group::ALL
            .into_iter()
            .find(|group| group.bits() == p.bits() && group.params().p.n() == p && group.params().g == *g)
    }

    fn entry(self) -> (&'static str, &'static str, usize) {
        match self {
            Group::Ffdhe2048 => ("ffdhe2048", primes::FFDHE2048, 225),
            Group::Ffdhe3072 => ("ffdhe3072", primes::FFDHE3072, 275),
            Group::Ffdhe4096 => ("ffdhe4096", primes::FFDHE4096, 325),
            Group::Ffdhe6144 => ("ffdhe6144", primes::FFDHE6144, 375),
            Group::Ffdhe8192 => ("ffdhe8192", primes::FFDHE8192, 400),
            Group::Modp1536 => ("modp_1536", primes::MODP1536, 200),
            Group::Modp2048 => ("modp_2048", primes::MODP2048, 225),
            Group::Modp3072 => ("modp_3072", primes::MODP3072, 275),
            Group::Modp4096 => ("modp_4096", primes::MODP4096, 325),
            Group::Modp6144 => ("modp_6144", primes::MODP6144, 375),
            Group::Modp8192 => ("modp_8192", primes::MODP8192, 400),
        }
    }
}

impl core::fmt::Display for Group {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both RFCs' primes have their top and bottom 64 bits set (the `2^b -
    /// 2^(b-64)` and `- 1` terms of their formulas) and the size in the name.
    #[test]
    fn every_prime_has_the_fixed_ends_of_its_formula() {
        for group in Group::ALL {
            let p = group.params().p.n();
            assert_eq!(p.bits(), group.bits(), "{group}");
            assert!(group.name().ends_with(&group.bits().to_string()));
            assert_eq!(p.digits()[0], u64::MAX, "{group}");
            assert_eq!(*p.digits().last().unwrap(), u64::MAX, "{group}");
            assert_eq!(group.params().q.shl(1).add(&Num::one()), *p);
        }
    }

    #[test]
    fn names_round_trip() {
        for group in Group::ALL {
            assert_eq!(Group::from_name(group.name()), Some(group));
            assert_eq!(Group::from_name(&group.name().to_uppercase()), Some(group));
            let params = group.params();
            assert_eq!(Group::from_numbers(params.p.n(), &params.g), Some(group));
        }
        assert_eq!(Group::from_name("modp2048"), Some(Group::Modp2048));
        assert_eq!(Group::from_name("ffdhe1024"), None);
    }
}
