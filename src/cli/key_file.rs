//! `--keys @FILE` and `--keys -`: the user's own keys, one per line, at most 10,000,000.
//!
//! Why not a list in memory: a key file may hold gigabytes, and the command line's memory
//! stays bounded per key, not per byte of input. One pass checks every line and records
//! where every [`STRIDE`]th key starts (an eighth of a byte a key); the engine asks for
//! names again when it needs them (hashing, algorithms that score a key's name, the
//! migration list) almost always in order, which a buffered cursor turns into one
//! sequential read — a key further on is reached by reading on, or by a seek to the start
//! of its stride and at most `STRIDE − 1` keys read past.
//! Standard input, a FIFO or a device cannot be read twice: it is copied to a temporary
//! file first, removed when the run ends. Blank lines are skipped, a trailing `\r` is dropped; the file must not
//! change while the run reads it.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use crate::engine::keys::{KeySource, MAX_KEYS, MAX_KEY_LEN};
use crate::text::{first_hidden, quote};

/// Every how many keys the file's offset is kept.
const STRIDE: u32 = 64;

/// What a key file costs per key beyond the engine's own bytes, rounded up: where every
/// [`STRIDE`]th key starts (8 bytes).
pub const OFFSET_BYTES_PER_KEY: u64 = 1;

/// A checked key file, read again on demand.
#[derive(Debug)]
pub struct KeyFile {
    path: PathBuf,
    shown: String,
    /// Where keys 0, [`STRIDE`], 2 × [`STRIDE`], … start.
    starts: Vec<u64>,
    /// How many keys.
    count: u32,
    cursor: Mutex<Cursor>,
    /// A copy of standard input, removed on drop.
    temporary: bool,
}

#[derive(Debug)]
struct Cursor {
    /// The key the reader is at.
    next: u32,
    /// The reader's offset in the file.
    at: u64,
    reader: BufReader<File>,
    line: Vec<u8>,
}

impl KeyFile {
    /// Opens `@FILE` (the path after `@`) or `-` (standard input), and checks every key.
    /// Anything but a regular file (standard input, a FIFO, a device, a socket) can be read
    /// only once, so it is copied to a temporary file as it is checked, like `-`: a FIFO
    /// opened a second time would wait for a writer that never comes.
    pub fn open(arg: &str) -> Result<KeyFile, String> {
        let named = if arg == "-" {
            None
        } else {
            let name = arg.strip_prefix('@').unwrap_or(arg);
            if name.is_empty() {
                return Err("--keys @FILE needs a file name after @".to_owned());
            }
            let file = File::open(name)
                .map_err(|e| format!("--keys: cannot open {}: {e}", quote(name)))?;
            let regular = file.metadata().is_ok_and(|m| m.is_file());
            Some((name, file, regular))
        };
        let (path, shown, temporary) = match &named {
            Some((name, _, true)) => (PathBuf::from(name), (*name).to_owned(), false),
            once => (
                std::env::temp_dir().join(format!("hashring-lab-keys-{}", std::process::id())),
                once.as_ref().map_or("-", |(name, _, _)| name).to_owned(),
                true,
            ),
        };
        let checked = match named {
            Some((_, file, true)) => {
                check(&mut BufReader::with_capacity(1 << 16, file), &shown, None)
            }
            // Checked as it is copied: a bad line stops the copy there (a gigabyte of zeros
            // is refused at its first 202 bytes, not kept first).
            once => File::create(&path)
                .map_err(|e| {
                    format!(
                        "--keys {}: cannot keep a copy in {}: {e}",
                        quote(&shown),
                        path.display()
                    )
                })
                .and_then(|copy| {
                    let mut copy = BufWriter::with_capacity(1 << 16, copy);
                    let checked = match once {
                        Some((_, file, _)) => check(
                            &mut BufReader::with_capacity(1 << 16, file),
                            &shown,
                            Some(&mut copy),
                        ),
                        None => check(&mut std::io::stdin().lock(), &shown, Some(&mut copy)),
                    }?;
                    copy.flush().map_err(|e| {
                        format!("--keys {}: cannot keep a copy: {e}", quote(&shown))
                    })?;
                    Ok(checked)
                }),
        };
        let (starts, count) = match checked {
            Ok(checked) => checked,
            Err(e) => {
                if temporary {
                    let _ = std::fs::remove_file(&path);
                }
                return Err(e);
            }
        };
        let file =
            File::open(&path).map_err(|e| format!("--keys: cannot open {}: {e}", quote(&shown)))?;
        Ok(KeyFile {
            path,
            shown,
            starts,
            count,
            cursor: Mutex::new(Cursor {
                next: 0,
                at: 0,
                reader: BufReader::with_capacity(1 << 16, file),
                line: Vec::new(),
            }),
            temporary,
        })
    }
}

/// The longest line a key can come from: the key, `\r\n`, and spaces around it.
const MAX_LINE: usize = MAX_KEY_LEN + 2;

/// What [`read_line`] found.
enum Line {
    /// The end of the input.
    End,
    /// A line (its `\n` included) is in the buffer.
    Read,
    /// A line longer than [`MAX_LINE`]: reading stopped in it.
    TooLong,
}

/// Reads one line into `line` (cleared first), but never more than [`MAX_LINE`] bytes of
/// it: a file with no line breaks (`/dev/zero`, a binary) is refused at its first line,
/// without ever holding more than a key's worth of it.
fn read_line(reader: &mut dyn BufRead, line: &mut Vec<u8>) -> std::io::Result<Line> {
    line.clear();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Read
            });
        }
        let (take, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buffer.len(), false),
        };
        // One byte past the longest line is kept, so that a key a byte too long is still
        // named with its length; anything longer stops here.
        let room = MAX_LINE + 1 - line.len().min(MAX_LINE + 1);
        line.extend_from_slice(&buffer[..take.min(room)]);
        reader.consume(take);
        if take > room {
            return Ok(Line::TooLong);
        }
        if done {
            return Ok(Line::Read);
        }
    }
}

/// One pass over the input: every key's start, or what is wrong and on which line. With
/// `copy`, every byte read is written there too (standard input kept for a second read).
/// The whole lines in the reader's buffer are checked where they lie, as one UTF-8 text; a
/// line that crosses the buffer's end (or is too long, or is not UTF-8, or ends the file
/// without a line break) is gathered and checked on its own.
fn check(
    reader: &mut dyn BufRead,
    shown: &str,
    mut copy: Option<&mut dyn Write>,
) -> Result<(Vec<u64>, u32), String> {
    let mut keys = Checked {
        shown,
        starts: Vec::new(),
        count: 0,
        offset: 0,
        number: 0,
    };
    let mut line = Vec::new();
    let cannot_read = |e: std::io::Error| format!("--keys: cannot read {}: {e}", quote(shown));
    let cannot_keep = |e: std::io::Error| format!("--keys {}: cannot keep it: {e}", quote(shown));
    loop {
        let buffer = loop {
            match reader.fill_buf() {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other.map_err(cannot_read)?,
            }
        };
        let lines = memchr::memrchr(b'\n', buffer)
            .and_then(|last| std::str::from_utf8(&buffer[..=last]).ok());
        if let Some(lines) = lines {
            if let Some(copy) = copy.as_mut() {
                copy.write_all(lines.as_bytes()).map_err(cannot_keep)?;
            }
            for line in lines.split_inclusive('\n') {
                keys.line(line)?;
            }
            let read = lines.len();
            reader.consume(read);
            continue;
        }
        match read_line(reader, &mut line).map_err(cannot_read)? {
            Line::End => break,
            Line::TooLong => {
                keys.number += 1;
                return Err(keys.at(&format!(
                    "the line is longer than {MAX_LINE} bytes; a key is at most {MAX_KEY_LEN}"
                )));
            }
            Line::Read => {
                if let Some(copy) = copy.as_mut() {
                    copy.write_all(&line).map_err(cannot_keep)?;
                }
                match std::str::from_utf8(&line) {
                    Ok(text) => keys.line(text)?,
                    Err(_) => {
                        keys.number += 1;
                        return Err(keys.at("the key is not UTF-8 text"));
                    }
                }
            }
        }
    }
    if keys.count == 0 {
        return Err(format!(
            "--keys {}: no keys (one key per line)",
            quote(shown)
        ));
    }
    Ok((keys.starts, keys.count))
}

/// The check's progress: the keys' starts kept so far (every [`STRIDE`]th), how many keys,
/// and where it is in the input.
struct Checked<'a> {
    shown: &'a str,
    starts: Vec<u64>,
    count: u32,
    /// The offset of the next line.
    offset: u64,
    /// The number of the last line read (1-based).
    number: u64,
}

impl Checked<'_> {
    /// What is wrong, said with the line it is on.
    fn at(&self, what: &str) -> String {
        format!("--keys {}, line {}: {what}", quote(self.shown), self.number)
    }

    /// Checks the next line (its `\n` included, if it has one) and keeps where it starts
    /// when it holds a key.
    fn line(&mut self, line: &str) -> Result<(), String> {
        self.number += 1;
        if line.len() > MAX_LINE + 1 {
            return Err(self.at(&format!(
                "the line is longer than {MAX_LINE} bytes; a key is at most {MAX_KEY_LEN}"
            )));
        }
        let start = self.offset;
        self.offset += line.len() as u64;
        let key = line.strip_suffix('\n').unwrap_or(line);
        let key = key.strip_suffix('\r').unwrap_or(key);
        if is_blank(key.as_bytes()) {
            return Ok(());
        }
        if key.len() > MAX_KEY_LEN {
            return Err(self.at(&format!(
                "the key {} is {} bytes; a key is at most {MAX_KEY_LEN}",
                quote(key),
                key.len()
            )));
        }
        if let Some(hidden) = first_hidden(key) {
            return Err(self.at(&format!(
                "the key holds an invisible or control character ({hidden})"
            )));
        }
        if u64::from(self.count) == MAX_KEYS {
            return Err(format!(
                "--keys {}: more than {MAX_KEYS} keys (line {} is one too many)",
                quote(self.shown),
                self.number
            ));
        }
        if self.count.is_multiple_of(STRIDE) {
            self.starts.push(start);
        }
        self.count += 1;
        Ok(())
    }
}

/// A line of nothing but spaces and tabs is blank: skipped, as an empty one is (a key of
/// spaces is a typing slip, and the page's pasted keys drop it too).
fn is_blank(key: &[u8]) -> bool {
    key.iter().all(|b| matches!(b, b' ' | b'\t'))
}

/// A line without its `\n` and a `\r` before it.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

impl Cursor {
    /// Calls `each` with the name of key `index` ("" when the file can no longer be read
    /// there). A key up to a stride ahead is reached by reading on; any other by a relative
    /// seek to the start of its stride — which keeps the buffer when that is in it (the
    /// moved keys of a change are read in order with gaps) — and reading on from there.
    fn visit(&mut self, index: u32, starts: &[u64], each: &mut dyn FnMut(&str)) {
        let ahead = index.checked_sub(self.next).is_some_and(|gap| gap < STRIDE);
        if !ahead {
            let stride = (index / STRIDE) as usize;
            let Some(&start) = starts.get(stride) else {
                return each("");
            };
            let moved = i64::try_from(i128::from(start) - i128::from(self.at))
                .map_err(|_| ())
                .and_then(|delta| self.reader.seek_relative(delta).map_err(|_| ()));
            if moved.is_err() {
                self.next = u32::MAX;
                return each("");
            }
            self.at = start;
            self.next = stride as u32 * STRIDE;
        }
        while self.next < index {
            if !self.read_key(&mut |_| ()) {
                return each("");
            }
        }
        if !self.read_key(each) {
            each("");
        }
    }

    /// Reads the next key (blank lines are skipped, as the check skipped them) and calls
    /// `each` with it; false when the file can no longer be read (the next visit seeks).
    fn read_key(&mut self, each: &mut dyn FnMut(&str)) -> bool {
        loop {
            let Ok(buffer) = self.reader.fill_buf() else {
                self.next = u32::MAX;
                return false;
            };
            let (read, blank) = match memchr::memchr(b'\n', buffer) {
                // The key lies in the buffer: handed over where it is.
                Some(end) => {
                    let key = trim_line(&buffer[..end]);
                    let blank = is_blank(key);
                    if !blank {
                        each(std::str::from_utf8(key).unwrap_or_default());
                    }
                    self.reader.consume(end + 1);
                    (end + 1, blank)
                }
                // The key crosses the buffer's end, or is the last without a line break.
                None => {
                    self.line.clear();
                    match self.reader.read_until(b'\n', &mut self.line) {
                        Ok(0) | Err(_) => {
                            self.next = u32::MAX;
                            return false;
                        }
                        Ok(n) => {
                            let key = trim_line(&self.line);
                            let blank = is_blank(key);
                            if !blank {
                                each(std::str::from_utf8(key).unwrap_or_default());
                            }
                            (n, blank)
                        }
                    }
                }
            };
            self.at += read as u64;
            if !blank {
                self.next += 1;
                return true;
            }
        }
    }
}

impl KeySource for KeyFile {
    fn len(&self) -> usize {
        self.count as usize
    }

    fn write_name(&self, index: u32, out: &mut String) {
        out.clear();
        self.for_each_name(&mut std::iter::once(index), &mut |name| out.push_str(name));
    }

    fn for_each_name(&self, indices: &mut dyn Iterator<Item = u32>, each: &mut dyn FnMut(&str)) {
        let mut cursor = self
            .cursor
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for index in indices {
            if index < self.count {
                cursor.visit(index, &self.starts, each);
            } else {
                each("");
            }
        }
    }

    fn describe(&self) -> &str {
        &self.shown
    }
}

impl Drop for KeyFile {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_with(name: &str, bytes: &[u8]) -> String {
        let path =
            std::env::temp_dir().join(format!("hashring-lab-test-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        format!("@{}", path.display())
    }

    #[test]
    fn names_come_back_in_order_and_out_of_order() {
        let arg = file_with("order", b"alpha\r\n\nbeta\ngamma\n\n");
        let keys = KeyFile::open(&arg).unwrap();
        assert_eq!(keys.len(), 3);
        let mut out = String::new();
        let name = |i: u32, out: &mut String| {
            keys.write_name(i, out);
            out.clone()
        };
        assert_eq!(
            [0, 1, 2, 1, 0, 2].map(|i| name(i, &mut out)),
            ["alpha", "beta", "gamma", "beta", "alpha", "gamma"]
        );
    }

    #[test]
    fn any_key_of_many_strides_comes_back_whatever_the_order_asked() {
        // 20,000 keys (many strides, several read buffers), a blank line after every
        // seventh, CRLF on some.
        const N: u32 = 20_000;
        let mut text = String::new();
        for i in 0..N {
            text.push_str(&format!(
                "key-{i}{}",
                if i % 5 == 0 { "\r\n" } else { "\n" }
            ));
            if i % 7 == 0 {
                text.push_str("  \n");
            }
        }
        let keys = KeyFile::open(&file_with("strides", text.as_bytes())).unwrap();
        assert_eq!(keys.len(), N as usize);
        // Forward, backward, jumps of more and less than a stride, the last key, past it.
        let asked: Vec<u32> = (0..N)
            .chain((0..N).rev().step_by(13))
            .chain([
                5,
                70,
                71,
                140,
                63,
                64,
                65,
                N - 1,
                0,
                128,
                127,
                N,
                7,
                12_345,
                6_000,
            ])
            .collect();
        let mut names = Vec::new();
        keys.for_each_name(&mut asked.iter().copied(), &mut |name| {
            names.push(name.to_owned())
        });
        let expected: Vec<String> = asked
            .iter()
            .map(|&i| {
                if i < N {
                    format!("key-{i}")
                } else {
                    String::new()
                }
            })
            .collect();
        assert_eq!(names, expected);
    }

    #[test]
    fn bad_lines_are_named_with_their_number() {
        let long = format!("ok\n{}\n", "x".repeat(201));
        let cases: [(&str, &[u8], &str); 5] = [
            ("long", long.as_bytes(), "line 2: the key"),
            (
                "utf8",
                b"a\nb\n\xff\xfe\n",
                "line 3: the key is not UTF-8 text",
            ),
            (
                "hidden",
                "a\u{200b}b\n".as_bytes(),
                "line 1: the key holds an invisible",
            ),
            ("empty", b"\n\r\n", "no keys (one key per line)"),
            ("spaces", b"  \n\t \r\n", "no keys (one key per line)"),
        ];
        for (name, bytes, expected) in cases {
            let message = KeyFile::open(&file_with(name, bytes)).unwrap_err();
            assert!(message.contains(expected), "{name}: {message}");
            assert!(message.len() < 200, "{name}: {message}");
        }
        // A file with no line breaks is refused at its first line, never held.
        let message = KeyFile::open("@/dev/zero").unwrap_err();
        assert!(
            message.contains("line 1: the line is longer than 202 bytes"),
            "{message}"
        );
        // A key of 200 bytes with CRLF is the longest line; spaces-only lines are skipped.
        let arg = file_with(
            "edge",
            format!("{}\r\n   \nb\n", "k".repeat(200)).as_bytes(),
        );
        let keys = KeyFile::open(&arg).unwrap();
        assert_eq!(keys.len(), 2);
        let mut out = String::new();
        keys.write_name(1, &mut out);
        assert_eq!(out, "b");
        assert!(KeyFile::open("@")
            .unwrap_err()
            .contains("needs a file name"));
    }
}
