//! Waits on what another process does, each with a deadline and none by
//! polling: the kernel tells when a directory changes (inotify) or a child
//! ends (a thread blocked in `wait`).

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// Waits until a file in `dir` holds something, `within` at most; whether
/// one did.
pub fn until_a_file_has_content(dir: &Path, within: Duration) -> bool {
    let has_content = || {
        std::fs::read_dir(dir).unwrap().any(|e| {
            e.ok()
                .and_then(|e| e.metadata().ok())
                .is_some_and(|m| m.len() > 0)
        })
    };
    // SAFETY: a new descriptor of our own, closed below.
    let fd = unsafe { libc::inotify_init1(libc::IN_CLOEXEC) };
    assert!(fd >= 0, "inotify_init1");
    let path = CString::new(dir.as_os_str().as_bytes()).unwrap();
    let events = libc::IN_CREATE | libc::IN_MODIFY | libc::IN_CLOSE_WRITE | libc::IN_MOVED_TO;
    // SAFETY: `path` is a valid C string for the call.
    let watch = unsafe { libc::inotify_add_watch(fd, path.as_ptr(), events) };
    assert!(watch >= 0, "inotify_add_watch");
    let deadline = Instant::now() + within;
    // Looked at after the watch is set, so no change falls between.
    let found = loop {
        if has_content() {
            break true;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break false;
        }
        let mut ready = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = i32::try_from(left.as_millis()).unwrap_or(i32::MAX).max(1);
        // SAFETY: one valid pollfd; then a read into a buffer of its size.
        if unsafe { libc::poll(&mut ready, 1, ms) } > 0 {
            let mut buf = [0u8; 4096];
            unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        }
    };
    // SAFETY: ours, opened above.
    unsafe { libc::close(fd) };
    found
}

/// Waits for `child` to end, `within` at most, and reads its stderr (piped
/// by the caller); kills it when it does not end in time (`None`).
pub fn child_ends(child: Child, within: Duration) -> (Option<ExitStatus>, String) {
    let pid = child.id() as i32;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let (ended, output) = if let Ok(output) = rx.recv_timeout(within) {
        (true, output)
    } else {
        // SAFETY: a signal to our own child, which has not been reaped.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        (false, rx.recv().expect("the waiting thread answers"))
    };
    let output = output.expect("the child's output");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (ended.then_some(output.status), stderr)
}
