//! Writing a whole file atomically, never through a link.
//!
//! Every file the app writes whole goes through here (the state files, the
//! config's `:save`, `config init`, exports, `-o FILE`, crash reports, man
//! pages). The bytes go to a new temporary file in the target's folder,
//! with a random name, created exclusively and without following links
//! (`O_CREAT | O_EXCL | O_NOFOLLOW`) and with its final permissions from
//! the start; it is flushed to disk, renamed over the target (or linked
//! beside it, for a file that must never replace another), and the folder
//! is synced. So a reader sees the old file or the new one, never half of
//! one; a link planted at the target or at a temporary name is never
//! written through; and a failure or an interrupt (the value dropped
//! before [`AtomicFile::commit`]) leaves the target as it was and removes
//! the temporary file.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Who may read the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// The owner only (0600): anything that may hold a token (the config),
    /// tells what the user did (the state files, crash reports) or holds
    /// findings (exports, `-o FILE`, snapshots).
    Private,
    /// As any program's new file: 0666 less the umask (man pages, shell
    /// completions).
    Default,
}

/// Whether the target may already exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replace {
    /// It is replaced (a link there is replaced itself, never followed).
    Existing,
    /// Never: a file or a link already there is an `AlreadyExists` error.
    Never,
}

/// A file being written: a temporary file beside `target` until
/// [`commit`](AtomicFile::commit) puts it in place. Dropped before that,
/// it removes the temporary file.
#[derive(Debug)]
pub struct AtomicFile {
    file: Option<File>,
    temp: PathBuf,
    target: PathBuf,
    replace: Replace,
    committed: bool,
}

impl AtomicFile {
    /// Starts writing `target`. With [`Replace::Never`], a file already
    /// there is refused now (before anything is written), and again when
    /// committing.
    pub fn create(target: &Path, access: Access, replace: Replace) -> io::Result<AtomicFile> {
        if replace == Replace::Never && target.symlink_metadata().is_ok() {
            return Err(io::Error::new(ErrorKind::AlreadyExists, "the file exists"));
        }
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(ErrorKind::InvalidInput, "not a file name"))?;
        let folder = folder_of(target);
        // A name taken (by chance, or by someone planting one) is skipped.
        for _ in 0..16 {
            let temp = folder.join(temp_name(name));
            match open_new(&temp, access) {
                Ok(file) => {
                    return Ok(AtomicFile {
                        file: Some(file),
                        temp,
                        target: target.to_path_buf(),
                        replace,
                        committed: false,
                    });
                }
                // Taken by another writer meanwhile: the next name.
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            ErrorKind::AlreadyExists,
            "no free temporary file name",
        ))
    }

    /// Where the bytes are until the commit (tests look at it).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// Flushes the file to disk and puts it in place of the target.
    pub fn commit(mut self) -> io::Result<()> {
        if let Some(file) = self.file.take() {
            file.sync_all()?;
        }
        match self.replace {
            Replace::Existing => std::fs::rename(&self.temp, &self.target)?,
            Replace::Never => place_new(&self.temp, &self.target)?,
        }
        self.committed = true;
        sync_folder(folder_of(&self.target));
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.open()?.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.open()?.flush()
    }
}

impl AtomicFile {
    fn open(&mut self) -> io::Result<&mut File> {
        self.file
            .as_mut()
            .ok_or_else(|| io::Error::other("the file is closed"))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Not committed (a failure, an interrupt): the temporary file goes.
        if !self.committed {
            self.file.take();
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Writes `bytes` as the whole of `target`.
pub fn write(target: &Path, bytes: &[u8], access: Access, replace: Replace) -> io::Result<()> {
    let mut file = AtomicFile::create(target, access, replace)?;
    file.write_all(bytes)?;
    file.commit()
}

/// The file a path names once links are followed: a config file kept as a
/// link (a dotfiles folder) is edited where it points, and stays a link.
/// A link to nowhere yet gives the path it points to.
pub fn through_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        match path.symlink_metadata() {
            Ok(meta) if meta.file_type().is_symlink() => {
                let to = std::fs::read_link(&path)?;
                path = folder_of(&path).join(to);
            }
            _ => return Ok(path),
        }
    }
    Err(io::Error::other("too many levels of links"))
}

/// Creates `folder` and its parents; private ones only the owner can
/// enter (0700). Folders already there are left as they are.
pub fn create_folder(folder: &Path, access: Access) -> io::Result<()> {
    if folder.as_os_str().is_empty() || folder.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    if access == Access::Private {
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    }
    builder.create(folder)
}

/// Opens a new file for writing append-only, never through a link (a log).
pub fn open_append(path: &Path, access: Access) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    restrict(&mut options, access);
    options.open(path).map_err(|e| {
        // With O_NOFOLLOW, ELOOP means the name is a link: say so.
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return io::Error::new(
                ErrorKind::InvalidInput,
                "it is a symbolic link (never followed)",
            );
        }
        e
    })
}

/// Opens `path` for reading at most `cap` bytes: a regular file only (a
/// link is followed to one), of at most `cap` bytes, checked on the opened
/// handle. A device (a link to `/dev/zero`), a FIFO (opened without
/// waiting for a writer) or a folder is an `InvalidInput` error, a larger
/// file a `FileTooLarge` one, so nothing is read without bound. The reader
/// ends after `cap + 1` bytes even if the file grows meanwhile.
pub fn open_capped(path: &Path, cap: u64) -> io::Result<io::Take<File>> {
    let mut options = OpenOptions::new();
    options.read(true);
    // A FIFO's open would wait for a writer: not with O_NONBLOCK (which
    // changes nothing for a regular file's reads).
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            ErrorKind::InvalidInput,
            "not a regular file (a device, a FIFO or a folder): not read",
        ));
    }
    if meta.len() > cap {
        return Err(io::Error::new(
            ErrorKind::FileTooLarge,
            format!("{} bytes, more than the {cap} it may have", meta.len()),
        ));
    }
    use std::io::Read;
    Ok(file.take(cap + 1))
}

/// The whole of `path`, a regular file of at most `cap` bytes
/// ([`open_capped`]).
pub fn read_capped(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    read_capped_with_metadata(path, cap).map(|(bytes, _)| bytes)
}

/// [`read_capped`], with the metadata of the file read (not of whatever
/// is at the path by now): whose it is and who may read it.
pub fn read_capped_with_metadata(
    path: &Path,
    cap: u64,
) -> io::Result<(Vec<u8>, std::fs::Metadata)> {
    use std::io::Read;
    let mut file = open_capped(path, cap)?;
    let meta = file.get_ref().metadata()?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::new(
            ErrorKind::FileTooLarge,
            format!("it grew past the {cap} bytes it may have while read"),
        ));
    }
    Ok((bytes, meta))
}

fn open_new(path: &Path, access: Access) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    restrict(&mut options, access);
    options.open(path)
}

/// The mode a new file gets, and no following of a link at the last step.
#[cfg_attr(not(unix), allow(unused_variables))]
fn restrict(options: &mut OpenOptions, access: Access) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(match access {
            Access::Private => 0o600,
            Access::Default => 0o666,
        });
        options.custom_flags(libc::O_NOFOLLOW);
    }
}

/// Puts `temp` at `target` unless something is there: a hard link fails
/// on an existing name (a link included) without touching it. Where the
/// file system has no hard links, a check then a rename (a small window).
fn place_new(temp: &Path, target: &Path) -> io::Result<()> {
    match std::fs::hard_link(temp, target) {
        Ok(()) => {
            let _ = std::fs::remove_file(temp);
            Ok(())
        }
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Err(e),
        Err(_) if target.symlink_metadata().is_ok() => {
            Err(io::Error::new(ErrorKind::AlreadyExists, "the file exists"))
        }
        Err(_) => std::fs::rename(temp, target),
    }
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A rename is durable once the folder's entry is: best effort (not every
/// system can sync a folder).
fn sync_folder(folder: &Path) {
    #[cfg(unix)]
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    #[cfg(not(unix))]
    let _ = folder;
}

/// `.NAME.RANDOM.tmp`: hidden, beside the target, unguessable.
fn temp_name(name: &std::ffi::OsStr) -> OsString {
    let mut temp = OsString::from(".");
    temp.push(name);
    temp.push(format!(".{:016x}.tmp", random()));
    temp
}

/// 64 unpredictable bits without a crate: std's hasher keys are seeded
/// from the system's randomness once per process; the time and a counter
/// make each call differ.
fn random() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u64(CALLS.fetch_add(1, Ordering::Relaxed));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    hasher.write_u128(now.as_nanos());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is in `dir` besides `keep`: temporary files left behind.
    fn leftovers(dir: &Path, keep: &[&str]) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| !keep.contains(&n.as_str()))
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn a_capped_read_takes_regular_files_of_at_most_the_cap_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("state.json");
        std::fs::write(&file, b"{}").unwrap();
        assert_eq!(read_capped(&file, 2).unwrap(), b"{}");
        let e = read_capped(&file, 1).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::FileTooLarge, "{e}");
        // A link to an endless device: refused before a byte is read.
        let zero = dir.path().join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let e = read_capped(&zero, 1 << 20).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
        // A FIFO with no writer: refused at once, no waiting for one.
        let fifo = dir.path().join("fifo.json");
        crate::sys::make_fifo(&fifo).unwrap();
        let e = read_capped(&fifo, 1 << 20).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
        let e = read_capped(dir.path(), 1 << 20).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidInput, "{e}");
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        path.symlink_metadata().unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_file_is_replaced_whole_and_nothing_is_left_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.json");
        write(&path, b"one", Access::Private, Replace::Existing).unwrap();
        write(&path, b"two", Access::Private, Replace::Existing).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert!(leftovers(dir.path(), &["state.json"]).is_empty());
    }

    #[test]
    fn a_dropped_file_leaves_the_target_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        std::fs::write(&path, "before").unwrap();
        let mut file = AtomicFile::create(&path, Access::Default, Replace::Existing).unwrap();
        file.write_all(b"half of it").unwrap();
        assert!(file.temp_path().exists());
        drop(file);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "before");
        assert!(leftovers(dir.path(), &["out.csv"]).is_empty());
    }

    #[test]
    fn temporary_names_are_random_and_hidden_beside_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("visits.json");
        let a = AtomicFile::create(&path, Access::Private, Replace::Existing).unwrap();
        let b = AtomicFile::create(&path, Access::Private, Replace::Existing).unwrap();
        assert_ne!(a.temp_path(), b.temp_path());
        assert_eq!(a.temp_path().parent(), Some(dir.path()));
        let name = a.temp_path().file_name().unwrap().to_string_lossy();
        assert!(
            name.starts_with(".visits.json.") && name.ends_with(".tmp"),
            "{name}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn private_files_are_0600_from_the_start_and_default_ones_follow_the_umask() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        // Before a byte is written, the temporary file is the owner's only.
        let file = AtomicFile::create(&path, Access::Private, Replace::Existing).unwrap();
        assert_eq!(mode(file.temp_path()), 0o600);
        file.commit().unwrap();
        assert_eq!(mode(&path), 0o600);
        // Replacing a wider file does not keep its mode.
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o644))
            .unwrap();
        write(&path, b"x", Access::Private, Replace::Existing).unwrap();
        assert_eq!(mode(&path), 0o600);
        // An export gets what any new file gets here (0666 less the umask).
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "").unwrap();
        let export = dir.path().join("export.csv");
        write(&export, b"x", Access::Default, Replace::Never).unwrap();
        assert_eq!(mode(&export), mode(&plain));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_target_is_replaced_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let path = dir.path().join("state.json");
        std::os::unix::fs::symlink(&victim, &path).unwrap();
        write(&path, b"new", Access::Private, Replace::Existing).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(!path.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_file_that_must_be_new_refuses_a_file_or_a_link_already_there() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let link = dir.path().join("out.csv");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let dangling = dir.path().join("new.csv");
        std::os::unix::fs::symlink(dir.path().join("nowhere"), &dangling).unwrap();
        for target in [&victim, &link, &dangling] {
            let e = write(target, b"x", Access::Default, Replace::Never).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::AlreadyExists, "{target:?}");
        }
        // Something put there while writing is not replaced either.
        let late = dir.path().join("late.csv");
        let mut file = AtomicFile::create(&late, Access::Default, Replace::Never).unwrap();
        file.write_all(b"mine").unwrap();
        std::fs::write(&late, "theirs").unwrap();
        assert_eq!(file.commit().unwrap_err().kind(), ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read_to_string(&late).unwrap(), "theirs");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(!dir.path().join("nowhere").exists());
        assert!(leftovers(dir.path(), &["victim", "out.csv", "new.csv", "late.csv"]).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_to_the_file_they_name() {
        let dir = tempfile::tempdir().unwrap();
        let dotfiles = dir.path().join("dotfiles");
        std::fs::create_dir(&dotfiles).unwrap();
        let real = dotfiles.join("findings.toml");
        let config = dir.path().join("config.toml");
        std::os::unix::fs::symlink("dotfiles/findings.toml", &config).unwrap();
        // Dangling: the path it points to.
        assert_eq!(
            through_links(&config).unwrap(),
            dir.path().join("dotfiles/findings.toml")
        );
        std::fs::write(&real, "").unwrap();
        let chain = dir.path().join("chain.toml");
        std::os::unix::fs::symlink(&config, &chain).unwrap();
        assert_eq!(
            std::fs::canonicalize(through_links(&chain).unwrap()).unwrap(),
            std::fs::canonicalize(&real).unwrap()
        );
        let plain = dir.path().join("plain.toml");
        assert_eq!(through_links(&plain).unwrap(), plain);
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        assert!(through_links(&looped).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn an_appended_log_is_never_opened_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let log = dir.path().join("findings.log");
        std::os::unix::fs::symlink(&victim, &log).unwrap();
        assert!(open_append(&log, Access::Private).is_err());
        let fresh = dir.path().join("fresh.log");
        open_append(&fresh, Access::Private).unwrap();
        assert_eq!(mode(&fresh), 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn private_folders_are_the_owners_only() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("a/b");
        create_folder(&state, Access::Private).unwrap();
        assert_eq!(mode(&state), 0o700);
        create_folder(&state, Access::Private).unwrap();
    }
}
