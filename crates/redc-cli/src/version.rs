//! `redc --version`: the version, the commit it was built from, the
//! features it was built with and the backends this machine can run.

use crate::backend;
use redc::Engine;
use redc_cuda::select;

/// The text of `redc --version` (`-V` prints the version alone). Probing
/// the backends opens the GPU in a CUDA build, so this is only built when
/// `--version` is asked for.
pub(crate) fn long() -> String {
    let on = |f: bool| if f { "on" } else { "off" };
    let mut out = format!(
        "{} (commit {})\nfeatures: cuda {}, openssl4 {}\nbackends on this machine:\n",
        env!("CARGO_PKG_VERSION"),
        env!("REDC_COMMIT"),
        on(cfg!(feature = "cuda")),
        on(cfg!(feature = "openssl4")),
    );
    for name in redc::engine::backend_names() {
        let state = match Engine::named(name) {
            Ok(engine) => format!("yes ({})", engine.describe()),
            Err(e) => format!("no ({e})"),
        };
        out.push_str(&format!("  {name}: {state}\n"));
    }
    let cuda = match select::gpu() {
        Ok(device) => format!("yes ({})", device.describe()),
        Err(e) => format!("no ({e})"),
    };
    out.push_str(&format!("  cuda: {cuda}\n"));
    out.push_str(&match backend::engine(None) {
        Ok(engine) => format!("  auto picks: {}", engine.name()),
        Err(e) => format!("  the default engine cannot run: {e}"),
    });
    out
}

/// Does `argv` ask for the long version?
pub(crate) fn asked(argv: &[std::ffi::OsString]) -> bool {
    argv.iter().skip(1).any(|a| a == "--version")
}
