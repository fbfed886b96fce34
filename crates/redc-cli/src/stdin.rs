//! Standard input, given to one option per command: with `-i` defaulting
//! to stdin, `redc encrypt --key -` would otherwise read the key from it
//! and then encrypt the empty rest.

use crate::failure::bad_input;
use std::sync::{Mutex, PoisonError};

/// The option that took stdin, once one has.
static TAKEN: Mutex<Option<String>> = Mutex::new(None);

/// Standard input for `option` (`--key`, `--in`, ...); bad input naming
/// both options if another one has already taken it.
pub(crate) fn take(option: &str) -> anyhow::Result<std::io::Stdin> {
    let mut taken = TAKEN.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(first) = taken.as_deref() {
        return Err(if first == option {
            bad_input!("{option} -: standard input is already read for another {option}; give files")
        } else {
            bad_input!("{option} -: standard input is already read as {first}; give {option} FILE (or {first} FILE)")
        });
    }
    *taken = Some(option.to_owned());
    Ok(std::io::stdin())
}
