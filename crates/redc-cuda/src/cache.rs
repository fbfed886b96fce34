//! Compiled kernels kept on disk between processes: NVRTC's machine code
//! for one `(threads, digits)` module and one GPU architecture, stored
//! under the SHA-256 of everything that made it (the source, the compiler
//! options, NVRTC's version), the way the CUDA driver keeps its own
//! just-in-time output. Compiling a large module takes NVRTC seconds (23 s
//! for one thread per 4096-bit number on a 2-core Zen 4), every time a
//! process opens the GPU; with the cache, once per machine.
//!
//! The cache is best effort: a missing, unreadable or unwritable directory
//! means compiling, never an error. The directory is created private to
//! its user (mode 0700 on Unix: code read from it runs beside secrets),
//! and entries are written whole (a temporary file, then a rename), so a
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

    /// The entry `key`, if stored and readable, and the directory is not
    /// writable by other users (else anyone could plant code in it).
    pub(crate) fn get(&self, key: &str) -> Option<Vec<u8>> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&self.dir).ok()?.permissions().mode();
            if mode & 0o022 != 0 {
                return None;
            }
        }
        std::fs::read(self.path(key)).ok().filter(|bytes| !bytes.is_empty())
    }

    /// Store `bytes` as entry `key`; false when it could not be stored.
    pub(crate) fn put(&self, key: &str, bytes: &[u8]) -> bool {
        self.try_put(key, bytes).is_ok()
    }

    fn try_put(&self, key: &str, bytes: &[u8]) -> std::io::Result<()> {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&self.dir)?;
        let tmp = self.dir.join(format!(".{key}.{}.tmp", std::process::id()));
        let written = std::fs::File::create(&tmp).and_then(|mut file| {
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
    fn an_unwritable_cache_is_not_an_error() {
        let dir = scratch("file");
        std::fs::write(&dir, b"a file, not a directory").unwrap();
        let cache = Cache::new(&dir);
        assert!(!cache.put("k", b"x"));
        assert_eq!(cache.get("k"), None);
        std::fs::remove_file(&dir).unwrap();
    }
}
