//! The security level of every key the commands use ([`redc_rsa::policy`]):
//! `--security-level N` (any command), else `REDC_SECURITY_LEVEL`, else
//! the library's default, 2. Set once before the command runs; the key
//! readers give it to every key they load, and key generation refuses a
//! size the level would refuse for private operations.

use crate::failure::bad_input;
use redc_rsa::policy::SecurityLevel;
use std::sync::OnceLock;

/// The environment variable that may hold the level.
pub(crate) const LEVEL_ENV: &str = "REDC_SECURITY_LEVEL";

static LEVEL: OnceLock<SecurityLevel> = OnceLock::new();

/// The level of this process, from `--security-level` (`flag`) or the
/// environment; an unknown level is bad input naming where it came from.
pub(crate) fn install(flag: Option<u8>) -> anyhow::Result<()> {
    let level = match (flag, std::env::var(LEVEL_ENV)) {
        (Some(n), _) => SecurityLevel::new(n).map_err(|e| bad_input!("--security-level {n}: {e}"))?,
        (None, Ok(text)) if !text.trim().is_empty() => text
            .trim()
            .parse::<u8>()
            .ok()
            .and_then(|n| SecurityLevel::new(n).ok())
            .ok_or_else(|| bad_input!("{LEVEL_ENV}={text}: not a security level (0 to {})", SecurityLevel::MAX))?,
        _ => SecurityLevel::DEFAULT,
    };
    let _ = LEVEL.set(level);
    Ok(())
}

/// The level of this process ([`SecurityLevel::DEFAULT`] before [`install`]).
pub(crate) fn level() -> SecurityLevel {
    LEVEL.get().copied().unwrap_or_default()
}

/// How to relax the level, appended to a refusal.
pub(crate) const HINT: &str = "give --security-level N or set REDC_SECURITY_LEVEL to accept it";
