//! Signatures made inside OpenSSL's asynchronous jobs, as an event-driven
//! server makes them: through the provider each job pauses while its
//! private operation waits for others to fill the engine's lanes, and is
//! resumed by its wait descriptor; every answer reaches its own job. The
//! default provider, which never pauses, gives the same PKCS#1 v1.5
//! signatures byte for byte.

mod evp;
#[test]
fn jobs_pause_their_private_operations_are_batched_and_answered_right() {
    let dir = evp::with_providers();
    let key = evp::key(&dir, 2048);
    for jobs in [1, 3, 16] {
        let digests: Vec<Vec<u8>> = (0..jobs).map(|i| vec![i as u8 + 1; 32]).collect();
        let redc: Vec<_> = (0..jobs).map(|_| evp::context(key, "provider=redc", true)).collect();
        let default: Vec<_> = (0..jobs).map(|_| evp::context(key, "provider=default", true)).collect();
        let (ours, pauses) = evp::sign_in_jobs(&redc, &digests);
        assert!(pauses >= jobs, "{jobs} jobs paused {pauses} times");
        let (theirs, none) = evp::sign_in_jobs(&default, &digests);
        assert_eq!(none, 0, "the default provider does not pause");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a.len(), 256, "job {i} of {jobs}");
            assert_eq!(
                a, b,
                "job {i} of {jobs}: redc's signature differs from the default provider's"
            );
        }
        for ctx in redc.into_iter().chain(default) {
            evp::free_context(ctx);
        }
    }
    // Jobs abandoned while paused (their connections closed): the batcher
    // still answers them, their descriptors close, and the jobs after them
    // are answered right.
    let open = || std::fs::read_dir("/proc/self/fd").unwrap().count();
    let before = open();
    let ctx = evp::context(key, "provider=redc", true);
    for i in 0..10u8 {
        evp::abandon_paused_job(ctx, &[i; 32]);
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while open() > before && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // At most as many as before: descriptors of the jobs above may close
    // meanwhile (the batcher drops its share of a wait descriptor after
    // answering), so fewer is no leak.
    assert!(
        open() <= before,
        "the abandoned jobs' descriptors are closed: {} > {before}",
        open()
    );
    let digests: Vec<Vec<u8>> = (0..4u8).map(|i| vec![i + 50; 32]).collect();
    let redc: Vec<_> = (0..4).map(|_| evp::context(key, "provider=redc", true)).collect();
    let default: Vec<_> = (0..4).map(|_| evp::context(key, "provider=default", true)).collect();
    assert_eq!(
        evp::sign_in_jobs(&redc, &digests).0,
        evp::sign_in_jobs(&default, &digests).0
    );
    for c in redc.into_iter().chain(default).chain([ctx]) {
        evp::free_context(c);
    }
    // Jobs started without a wait context, and jobs sharing one while the
    // first is paused: signed at once, right.
    let digests: Vec<Vec<u8>> = (0..3u8).map(|i| vec![i + 90; 32]).collect();
    let redc: Vec<_> = (0..3).map(|_| evp::context(key, "provider=redc", true)).collect();
    let default: Vec<_> = (0..3).map(|_| evp::context(key, "provider=default", true)).collect();
    let want = evp::sign_in_jobs(&default, &digests).0;
    for with_wait_ctx in [false, true] {
        assert_eq!(
            evp::sign_sharing_wait_ctx(&redc, &digests, with_wait_ctx),
            want,
            "wait context {with_wait_ctx}"
        );
    }
    for c in redc.into_iter().chain(default) {
        evp::free_context(c);
    }
    // Outside a job, the same context signs at once.
    let ctx = evp::context(key, "provider=redc", true);
    let verify = evp::context(key, "provider=default", false);
    let sig = evp::sign(ctx, &[9; 32]);
    assert!(evp::verifies(verify, &sig, &[9; 32]));
    evp::free_context(ctx);
    evp::free_context(verify);
}
