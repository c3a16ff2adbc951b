//! Files the command line writes (`--moved FILE`): never over one of the run's own inputs,
//! and never left half-written.
//!
//! A run reads its key file again and again while it writes (names are rebuilt on demand,
//! never held), so `--moved keys.txt --keys @keys.txt` would truncate the keys before they
//! were read: an output that is an input — the same path, or another name for the same
//! file (a symbolic or hard link) — is refused before anything runs. The rows go to a
//! temporary file beside the destination, renamed over it when the run succeeds; a run that
//! fails or is interrupted leaves the destination as it was.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use crate::text::quote;

/// Refuses `output` (given to `flag`) when it names the same file as one of `inputs`
/// (each with the flag that named it).
pub fn check_not_an_input(
    output: &Path,
    flag: &str,
    inputs: &[(&str, &Path)],
) -> Result<(), String> {
    for (input_flag, input) in inputs {
        if same_file(output, input) {
            return Err(format!(
                "{flag} {} is the file {input_flag} reads: writing it would destroy it before it is read; write to another file",
                quote(&output.to_string_lossy())
            ));
        }
    }
    Ok(())
}

/// True when both paths exist and are the same file (the same device and inode on Unix;
/// the same canonical path elsewhere).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return a.dev() == b.dev() && a.ino() == b.ino();
        }
        false
    }
    #[cfg(not(unix))]
    {
        matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
    }
}

/// A file being written: rows go to a temporary file beside `dest`, which
/// [`OutputFile::commit`] renames into place; dropped uncommitted, the temporary file is
/// removed and `dest` is untouched.
#[derive(Debug)]
pub struct OutputFile {
    dest: PathBuf,
    temporary: PathBuf,
    writer: Option<BufWriter<File>>,
    flag: &'static str,
}

impl OutputFile {
    /// Starts writing `dest` (named by `flag` in messages).
    pub fn create(dest: &Path, flag: &'static str) -> Result<OutputFile, String> {
        let shown = || quote(&dest.to_string_lossy());
        let name = dest
            .file_name()
            .ok_or_else(|| format!("{flag} {} is not a file name", shown()))?;
        let mut temporary_name = std::ffi::OsString::from(".");
        temporary_name.push(name);
        temporary_name.push(format!(".{}.partial", std::process::id()));
        let temporary = dest.with_file_name(temporary_name);
        let file = File::create(&temporary)
            .map_err(|e| format!("{flag}: cannot write {}: {e}", shown()))?;
        Ok(OutputFile {
            dest: dest.to_owned(),
            temporary,
            writer: Some(BufWriter::new(file)),
            flag,
        })
    }

    /// Where the rows go.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.writer
            .as_mut()
            .unwrap_or_else(|| unreachable!("an output file is written until it is committed"))
    }

    /// Flushes the rows and puts the file in place.
    pub fn commit(mut self) -> Result<(), String> {
        let flag = self.flag;
        let writer = self
            .writer
            .take()
            .unwrap_or_else(|| unreachable!("committed once"));
        let file = writer
            .into_inner()
            .map_err(|e| format!("{flag}: {}", e.error()))?;
        file.sync_all().map_err(|e| format!("{flag}: {e}"))?;
        std::fs::rename(&self.temporary, &self.dest).map_err(|e| {
            format!(
                "{flag}: cannot put {} in place: {e}",
                quote(&self.dest.to_string_lossy())
            )
        })
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}
