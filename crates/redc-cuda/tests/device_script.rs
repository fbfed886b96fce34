//! The GPU run's script (`device/run.sh`) on a bundle of stand-ins: its own
//! logic (steps in order, each with its exit status, the plan the sweep
//! prints handed to the bench, a failing step not stopping the rest, the
//! summary and the archive) checked without a GPU, as it must be before a
//! GPU's minutes are spent on it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("device").join(name)
}

fn stand_in(dir: &Path, name: &str, body: &str) {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/usr/bin/env bash\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn both_scripts_parse() {
    for name in ["prepare.sh", "run.sh"] {
        let status = Command::new("bash").arg("-n").arg(script(name)).status().unwrap();
        assert!(status.success(), "{name}");
    }
}

#[test]
fn the_run_hands_the_sweeps_plan_to_the_bench_and_keeps_going() {
    let root = std::env::temp_dir().join(format!("redc-gpu-run-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (bundle, out) = (root.join("bundle"), root.join("out"));
    let bin = bundle.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(bundle.join("cache")).unwrap();
    stand_in(
        &bin,
        "device-tests",
        "echo 'test gpu_case ... ok'; echo 'test result: ok. 1 passed'",
    );
    stand_in(
        &bin,
        "engine-tests",
        "echo 'SKIPPED gpu: none'; echo 'test result: ok. 1 passed'",
    );
    stand_in(
        &bin,
        "sweep",
        "echo '| 1024 | 1 | secret |'; echo 'fastest plan: REDC_CUDA_THREADS=32s:4,32p:1'",
    );
    // The bench fails at 4096 bits: the run goes on to CGBN.
    stand_in(
        &bin,
        "redc",
        r#"echo "GPU: stand-in, plan=$REDC_CUDA_THREADS, sizes=$6"; [ "$6" != 4096 ]"#,
    );
    stand_in(&bin, "cgbn_anchor", r#"echo '{"anchor":"stand-in"}'"#);
    let output = Command::new(script("run.sh"))
        .arg(&out)
        .env("REDC_GPU_BUNDLE", &bundle)
        .env("RUN_SECONDS", "60")
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{printed}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    for line in [
        "step device-tests: exit 0",
        "SKIPPED lines in the GPU tests: 1",
        "fastest plan: REDC_CUDA_THREADS=32s:4,32p:1",
        "bench plan: 32s:4,32p:1",
        "GPU: stand-in, plan=32s:4,32p:1, sizes=2048",
        "step bench-4096: exit 1",
        "step cgbn: exit 0",
        "{\"anchor\":\"stand-in\"}",
        "done in",
    ] {
        assert!(summary.contains(line), "{line:?} missing from\n{summary}");
    }
    let order: Vec<usize> = ["step device-tests", "step sweep", "step bench-2048", "step cgbn"]
        .iter()
        .map(|s| summary.find(s).unwrap())
        .collect();
    assert!(order.is_sorted(), "{summary}");
    let listing = Command::new("tar")
        .arg("tzf")
        .arg(out.join("run.tgz"))
        .output()
        .unwrap();
    let listing = String::from_utf8_lossy(&listing.stdout);
    for file in [
        "logs/sweep.log",
        "logs/bench-2048.log",
        "logs/cgbn.log",
        "logs/steps.tsv",
    ] {
        assert!(listing.contains(file), "{file} missing from the archive:\n{listing}");
    }
    std::fs::remove_dir_all(&root).unwrap();
}
