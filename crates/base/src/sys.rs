//! The only calls into the C library: each a safe function over one
//! `unsafe` block whose SAFETY comment says why it holds. The workspace
//! denies unsafe code everywhere else (`unsafe_code` in the workspace's
//! lints; the architecture test names this module as the one exception).
#![allow(unsafe_code)]

/// The process's effective user id: whose files may be trusted.
#[cfg(unix)]
pub fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Stops this process as Ctrl-Z would, until a SIGCONT (`fg`).
///
/// SIGSTOP, not SIGTSTP: the kernel discards SIGTSTP in an orphaned
/// process group, and SIGSTOP cannot be caught or ignored.
#[cfg(unix)]
pub fn stop_self() {
    // SAFETY: raising a signal on our own process has no memory effects.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
}

/// One malloc arena for the whole process (glibc): a page decoded on one
/// runtime thread and written out on another otherwise strands free
/// memory in both threads' arenas. Call before any other thread starts.
pub fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator tuning; called before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// A terminal's echo turned off (canonical input kept, so a line is read
/// whole) until this is dropped, which puts the settings back.
#[cfg(unix)]
pub struct EchoOff {
    fd: std::os::fd::RawFd,
    saved: libc::termios,
}

#[cfg(unix)]
impl EchoOff {
    /// Turns the echo of the terminal open on `fd` off; an error when `fd`
    /// is not a terminal.
    pub fn new(fd: std::os::fd::RawFd) -> std::io::Result<Self> {
        // SAFETY: termios is plain data; tcgetattr fills it in and is
        // checked before the value is used.
        let mut saved: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: tcgetattr writes only into `saved`, which outlives it.
        if unsafe { libc::tcgetattr(fd, &mut saved) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut quiet = saved;
        quiet.c_lflag &= !libc::ECHO;
        quiet.c_lflag |= libc::ICANON;
        // SAFETY: tcsetattr reads a termios that tcgetattr filled in.
        unsafe { libc::tcsetattr(fd, libc::TCSANOW, &quiet) };
        Ok(Self { fd, saved })
    }
}

#[cfg(unix)]
impl Drop for EchoOff {
    fn drop(&mut self) {
        // SAFETY: the settings read from this terminal when it was opened.
        unsafe { libc::tcsetattr(self.fd, libc::TCSANOW, &self.saved) };
    }
}

/// Makes a named pipe at `path` (mode 0600): what the tests of bounded
/// reads open where a file was expected.
#[cfg(unix)]
pub fn make_fifo(path: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let name = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // SAFETY: `name` is a NUL-terminated path that outlives the call.
    if unsafe { libc::mkfifo(name.as_ptr(), 0o600) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}
