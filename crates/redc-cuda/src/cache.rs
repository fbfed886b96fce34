//! Compiled kernels kept on disk between processes: NVRTC's machine code
//! for one `(threads, digits)` module and one GPU architecture, stored
//! under the SHA-256 of everything that made it (the source, the compiler
//! options, NVRTC's version), the way the CUDA driver keeps its own
//! just-in-time output. Compiling a large module takes NVRTC seconds (23 s
//! for one thread per 4096-bit number on a 2-core Zen 4), every time a
//! process opens the GPU; with the cache, once per machine.
//!
//! The cache is best effort: a missing, unreadable or unwritable directory
//! means compiling, never an error. Code read from it runs beside secrets,
//! so it is read only from a directory that is not a link, belongs to this
//! user and no other can write (mode 0700 when made here), and only from
//! regular files of this user whose content matches the SHA-256 stored in
//! their first 32 bytes (a truncated or damaged entry is compiled again).
//! Entries are written whole (a fresh temporary file, then a rename), so a
//! reader never sees half an entry.

use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A cache directory.
#[derive(Debug, Clone)]
pub(crate) struct Cache {
    dir: PathBuf,
}

/// The name of an entry: the hex SHA-256 of its inputs, each length-prefixed
/// so that no two different input lists hash the same bytes.
pub(crate) fn key(source: &str, options: &[String], nvrtc_version: (i32, i32)) -> String {
    let mut hash = Sha256::new();
    let mut part = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    };
    part(b"redc-cuda kernel cache 1");
    part(format!("nvrtc {}.{}", nvrtc_version.0, nvrtc_version.1).as_bytes());
    for option in options {
        part(option.as_bytes());
    }
    part(source.as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

impl Cache {
    /// The cache in `dir` (created when the first entry is stored).
    pub(crate) fn new(dir: &Path) -> Cache {
        Cache { dir: dir.to_owned() }
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.cubin"))
    }

    /// Whether the directory may hold code to run: a real directory (not a
    /// link), this user's, writable by no other.
    fn trusted(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            std::fs::symlink_metadata(&self.dir)
                .is_ok_and(|m| m.is_dir() && m.uid() == rustix::process::geteuid().as_raw() && m.mode() & 0o022 == 0)
        }
        #[cfg(not(unix))]
        {
            false
        }
    }

    /// The entry `key`, if the directory is trusted, the entry is a
    /// regular file of this user and its content matches its digest.
    pub(crate) fn get(&self, key: &str) -> Option<Vec<u8>> {
        if !self.trusted() {
            return None;
        }
        let path = self.path(key);
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let m = std::fs::symlink_metadata(&path).ok()?;
            if !m.is_file() || m.uid() != rustix::process::geteuid().as_raw() {
                return None;
            }
        }
        let bytes = std::fs::read(path).ok()?;
        let (digest, content) = bytes.split_at_checked(32)?;
        (!content.is_empty() && Sha256::digest(content).as_slice() == digest).then(|| content.to_vec())
    }

    /// Store `bytes` as entry `key`; false when it could not be stored (or
    /// the directory is not trusted).
    pub(crate) fn put(&self, key: &str, bytes: &[u8]) -> bool {
        self.try_put(key, bytes).is_ok()
    }

    fn try_put(&self, key: &str, bytes: &[u8]) -> std::io::Result<()> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&self.dir)?;
        if !self.trusted() {
            return Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
        }
        // A name of its own per process and write: two threads storing the
        // same entry never share a temporary file.
        let tmp = self.dir.join(format!(
            ".{key}.{}.{}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let written = options.open(&tmp).and_then(|mut file| {
            file.write_all(&Sha256::digest(bytes))?;
            file.write_all(bytes)?;
            file.sync_all()
        });
        match written.and_then(|()| std::fs::rename(&tmp, self.path(key))) {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("redc-cuda-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn keys_change_with_every_input() {
        let opts = vec!["--gpu-architecture=sm_90".to_owned()];
        let base = key("src", &opts, (13, 0));
        assert_eq!(base.len(), 64);
        assert_eq!(base, key("src", &opts, (13, 0)));
        assert_ne!(base, key("src2", &opts, (13, 0)));
        assert_ne!(base, key("src", &["--gpu-architecture=sm_80".to_owned()], (13, 0)));
        assert_ne!(base, key("src", &opts, (12, 8)));
        // Length prefixes: moving bytes between parts changes the key.
        assert_ne!(key("b", &["a".to_owned()], (1, 0)), key("", &["ab".to_owned()], (1, 0)));
    }

    #[test]
    fn entries_round_trip_in_a_private_directory() {
        let dir = scratch("round-trip");
        let cache = Cache::new(&dir.join("nested"));
        assert_eq!(cache.get("k"), None);
        assert!(cache.put("k", b"machine code"));
        assert_eq!(cache.get("k").as_deref(), Some(&b"machine code"[..]));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.join("nested")).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        let leftovers: Vec<_> = std::fs::read_dir(dir.join("nested"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n.to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_others_can_write_is_not_read() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("shared");
        let cache = Cache::new(&dir);
        assert!(cache.put("k", b"code"));
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert_eq!(cache.get("k"), None);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        assert!(cache.get("k").is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_or_planted_entry_is_not_read() {
        let dir = scratch("damaged");
        let cache = Cache::new(&dir);
        assert!(cache.put("k", b"machine code"));
        let path = cache.path("k");
        let stored = std::fs::read(&path).unwrap();
        // Truncated, or a byte changed: not read.
        std::fs::write(&path, &stored[..stored.len() - 1]).unwrap();
        assert_eq!(cache.get("k"), None);
        let mut flipped = stored.clone();
        *flipped.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert_eq!(cache.get("k"), None);
        // A link in place of the entry, or of the directory: not read.
        std::fs::write(dir.join("elsewhere"), &stored).unwrap();
        std::fs::remove_file(&path).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("elsewhere"), &path).unwrap();
            assert_eq!(cache.get("k"), None);
            let link = scratch("link");
            std::os::unix::fs::symlink(&dir, &link).unwrap();
            std::fs::remove_file(&path).unwrap();
            std::fs::write(&path, &stored).unwrap();
            assert!(cache.get("k").is_some());
            assert_eq!(Cache::new(&link).get("k"), None);
            std::fs::remove_file(&link).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_unwritable_cache_is_not_an_error() {
        let dir = scratch("file");
        std::fs::write(&dir, b"a file, not a directory").unwrap();
        let cache = Cache::new(&dir);
        assert!(!cache.put("k", b"x"));
        assert_eq!(cache.get("k"), None);
        std::fs::remove_file(&dir).unwrap();
    }
}
