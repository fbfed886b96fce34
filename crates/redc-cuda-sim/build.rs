//! Compiles the CUDA kernels of `redc-cuda` for the host: `host/sim.cpp`
//! includes the shim and the kernel source, so the same code runs here.

fn main() {
    let kernels = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../redc-cuda/kernels");
    println!("cargo:rerun-if-changed={}", kernels.display());
    for dir in [kernels.clone(), kernels.join("host")] {
        for entry in std::fs::read_dir(&dir).expect("the kernel sources").flatten() {
            println!("cargo:rerun-if-changed={}", entry.path().display());
        }
    }
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .opt_level(2)
        .file(kernels.join("host/sim.cpp"))
        .compile("redc_cuda_sim");
}
