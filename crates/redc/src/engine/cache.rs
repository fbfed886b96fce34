//! Values prepared for an engine (a [`super::Prepared`] modulus, a key's
//! primes), made on first use and kept with the key or parameter set that
//! owns them, one per engine configuration (its list of backends): a
//! prepared value belongs to the backends that made it.

use super::Engine;
use std::sync::{Arc, Mutex, PoisonError};

/// The kept values, one per engine configuration. A clone starts with
/// the values kept so far, shared (one made later is the maker's alone);
/// the last owner's drop wipes what wipes itself ([`super::Prepared`]
/// does).
pub struct EngineCache<T>(Mutex<Vec<(Vec<&'static str>, Arc<T>)>>);

impl<T> Clone for EngineCache<T> {
    fn clone(&self) -> Self {
        Self(Mutex::new(
            self.0.lock().unwrap_or_else(PoisonError::into_inner).clone(),
        ))
    }
}

impl<T> Default for EngineCache<T> {
    fn default() -> Self {
        Self(Mutex::new(Vec::new()))
    }
}

impl<T> core::fmt::Debug for EngineCache<T> {
    /// The engine configurations kept, not the values.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let slots = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_list().entries(slots.iter().map(|(k, _)| k)).finish()
    }
}

impl<T> EngineCache<T> {
    /// The value for `engine`, made by `init` on first use.
    pub fn get(&self, engine: &Engine, init: impl FnOnce() -> T) -> Arc<T> {
        let id = engine.backends();
        if let Some((_, v)) = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .find(|(k, _)| *k == id)
        {
            return Arc::clone(v);
        }
        let v = Arc::new(init());
        let mut slots = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match slots.iter().find(|(k, _)| *k == id) {
            Some((_, kept)) => Arc::clone(kept),
            None => {
                slots.push((id, Arc::clone(&v)));
                v
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scalar::Scalar;

    #[test]
    fn one_value_per_engine_configuration() {
        let cache = EngineCache::<usize>::default();
        let (a, b) = (Engine::with_backend(Scalar), Engine::detect());
        let made = core::cell::Cell::new(0);
        let get = |e: &Engine| {
            *cache.get(e, || {
                made.set(made.get() + 1);
                made.get()
            })
        };
        assert_eq!((get(&a), get(&a)), (1, 1));
        let other = get(&b);
        assert_eq!(other, if b.backends() == a.backends() { 1 } else { 2 });
        let clone = cache.clone();
        assert_eq!(*clone.get(&a, || 9), 1);
    }
}
