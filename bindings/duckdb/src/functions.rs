//! The SQL functions: their signatures as DuckDB registers them, and their bodies over a
//! chunk of rows. A body's problem becomes the query's error (DuckDB stops the query and
//! shows the message); a panic is caught at the boundary, never unwound into DuckDB.

use std::ffi::{c_char, CStr, CString};
use std::rc::Rc;

use libduckdb_sys as ffi;

use crate::clusters::{self, Built};
use crate::vectors::{set_null, set_text, Column, KeyKind};

/// A function's body over one chunk: `(input, output)`.
type Body = unsafe fn(ffi::duckdb_data_chunk, ffi::duckdb_vector) -> Result<(), String>;

/// A DuckDB logical type, destroyed when dropped.
struct LogicalType(ffi::duckdb_logical_type);

impl LogicalType {
    fn of(id: ffi::duckdb_type) -> LogicalType {
        // SAFETY: creating a type of a plain id has no precondition.
        LogicalType(unsafe { ffi::duckdb_create_logical_type(id) })
    }

    fn varchar() -> LogicalType {
        LogicalType::of(ffi::DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR)
    }

    /// `STRUCT(old_server VARCHAR, new_server VARCHAR)`: where a key moves.
    fn moves() -> LogicalType {
        let (old, new) = (LogicalType::varchar(), LogicalType::varchar());
        let mut types = [old.0, new.0];
        let mut names: [*const c_char; 2] = [c"old_server".as_ptr(), c"new_server".as_ptr()];
        // SAFETY: two types and two names, alive for the call (DuckDB copies them).
        LogicalType(unsafe {
            ffi::duckdb_create_struct_type(types.as_mut_ptr(), names.as_mut_ptr(), 2)
        })
    }
}

impl Drop for LogicalType {
    fn drop(&mut self) {
        // SAFETY: the type was created by DuckDB and is destroyed once.
        unsafe { ffi::duckdb_destroy_logical_type(&mut self.0) }
    }
}

/// Runs `body` for DuckDB, turning its problem or a panic into the query's error.
unsafe fn run(
    info: ffi::duckdb_function_info,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
    body: Body,
) {
    // SAFETY: `input` and `output` are the chunk and vector DuckDB passed to this call.
    let outcome =
        std::panic::catch_unwind(|| unsafe { body(input, output) }).unwrap_or_else(|_| {
            Err("hashring_lab: internal error (a panic), please report it".to_owned())
        });
    if let Err(message) = outcome {
        let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: `info` is this call's; DuckDB copies the message.
        unsafe { ffi::duckdb_scalar_function_set_error(info, text.as_ptr()) }
    }
}

/// The rows of a chunk.
unsafe fn rows(input: ffi::duckdb_data_chunk) -> u64 {
    // SAFETY: `input` is DuckDB's chunk.
    unsafe { ffi::duckdb_data_chunk_get_size(input) }
}

/// The cluster a column names at a row, rebuilt only when the text changes from the row
/// before (a query names one cluster for every row, as a constant).
struct ClusterColumn {
    column: Column,
    current: Option<(String, Rc<Built>)>,
}

impl ClusterColumn {
    unsafe fn at(&mut self, row: u64) -> Result<Option<Rc<Built>>, String> {
        // SAFETY: `row` is below the chunk's size (the callers loop over `rows`).
        let Some(spec) = (unsafe { self.column.text(row) }) else {
            return Ok(None);
        };
        if let Some((text, built)) = &self.current {
            if text == spec {
                return Ok(Some(Rc::clone(built)));
            }
        }
        let built = clusters::cluster(spec)?;
        self.current = Some((spec.to_owned(), Rc::clone(&built)));
        Ok(Some(built))
    }
}

unsafe fn cluster_column(input: ffi::duckdb_data_chunk, index: u64) -> ClusterColumn {
    ClusterColumn {
        // SAFETY: the functions' signatures give them these columns.
        column: unsafe { Column::of(input, index) },
        current: None,
    }
}

/// `hashring_locate(cluster, key)` for keys of `kind`.
unsafe fn locate(
    kind: KeyKind,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) -> Result<(), String> {
    // SAFETY: columns 0 and 1 are the cluster and the key; rows below the chunk's size.
    unsafe {
        let mut clusters = cluster_column(input, 0);
        let keys = Column::of(input, 1);
        let mut buffer = itoa::Buffer::new();
        for row in 0..rows(input) {
            let (Some(cluster), Some(key)) = (clusters.at(row)?, keys.key(kind, row, &mut buffer)?)
            else {
                set_null(output, row);
                continue;
            };
            set_text(output, row, cluster.owner(key)?);
        }
    }
    Ok(())
}

/// `hashring_moves(before, after, key)` for keys of `kind`: NULL where the key stays.
unsafe fn moves(
    kind: KeyKind,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) -> Result<(), String> {
    // SAFETY: columns 0, 1 and 2 are the clusters and the key; the output is the struct
    // of two VARCHARs; rows below the chunk's size.
    unsafe {
        let mut before = cluster_column(input, 0);
        let mut after = cluster_column(input, 1);
        let keys = Column::of(input, 2);
        let (old, new) = (
            ffi::duckdb_struct_vector_get_child(output, 0),
            ffi::duckdb_struct_vector_get_child(output, 1),
        );
        let mut buffer = itoa::Buffer::new();
        for row in 0..rows(input) {
            let (b, a) = (before.at(row)?, after.at(row)?);
            let key = keys.key(kind, row, &mut buffer)?;
            let owners = match (b, a, key) {
                (Some(b), Some(a), Some(key)) => {
                    let (from, to) = (b.owner(key)?, a.owner(key)?);
                    (from != to).then(|| (from.map(str::to_owned), to.map(str::to_owned)))
                }
                _ => None,
            };
            match owners {
                Some((from, to)) => {
                    set_text(old, row, from.as_deref());
                    set_text(new, row, to.as_deref());
                }
                None => {
                    set_null(output, row);
                    set_null(old, row);
                    set_null(new, row);
                }
            }
        }
    }
    Ok(())
}

/// `hashring_cluster(name, cluster[, step])`: registers the name (for the cluster with the
/// step applied), answers the cluster in words.
unsafe fn name_cluster(
    with_step: bool,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) -> Result<(), String> {
    // SAFETY: columns 0, 1 (and 2 with a step) are VARCHARs; rows below the chunk's size.
    unsafe {
        let (names, specs) = (Column::of(input, 0), Column::of(input, 1));
        let steps = with_step.then(|| Column::of(input, 2));
        for row in 0..rows(input) {
            let step = steps.as_ref().map(|s| s.text(row));
            match (names.text(row), specs.text(row), step) {
                (Some(name), Some(spec), None) => {
                    set_text(output, row, Some(&clusters::register(name, spec, None)?));
                }
                (Some(name), Some(spec), Some(Some(step))) => {
                    set_text(
                        output,
                        row,
                        Some(&clusters::register(name, spec, Some(step))?),
                    );
                }
                _ => set_null(output, row),
            }
        }
    }
    Ok(())
}

macro_rules! entry {
    ($name:ident, $body:expr) => {
        unsafe extern "C" fn $name(
            info: ffi::duckdb_function_info,
            input: ffi::duckdb_data_chunk,
            output: ffi::duckdb_vector,
        ) {
            // SAFETY: DuckDB's arguments for this call.
            unsafe { run(info, input, output, $body) }
        }
    };
}

entry!(locate_text, |i, o| locate(KeyKind::Text, i, o));
entry!(locate_blob, |i, o| locate(KeyKind::Blob, i, o));
entry!(locate_signed, |i, o| locate(KeyKind::Signed, i, o));
entry!(locate_unsigned, |i, o| locate(KeyKind::Unsigned, i, o));
entry!(moves_text, |i, o| moves(KeyKind::Text, i, o));
entry!(moves_blob, |i, o| moves(KeyKind::Blob, i, o));
entry!(moves_signed, |i, o| moves(KeyKind::Signed, i, o));
entry!(moves_unsigned, |i, o| moves(KeyKind::Unsigned, i, o));
entry!(name_cluster_entry, |i, o| name_cluster(false, i, o));
entry!(name_stepped_cluster_entry, |i, o| name_cluster(true, i, o));

/// A DuckDB function pointer, as the registration takes it.
type Entry =
    unsafe extern "C" fn(ffi::duckdb_function_info, ffi::duckdb_data_chunk, ffi::duckdb_vector);

/// One overload: its parameters, its result, its body.
struct Overload {
    parameters: Vec<LogicalType>,
    result: LogicalType,
    entry: Entry,
    volatile: bool,
}

/// Registers `name` with its overloads on `connection`.
unsafe fn register_set(
    connection: ffi::duckdb_connection,
    name: &CStr,
    overloads: Vec<Overload>,
) -> Result<(), String> {
    // SAFETY: every handle is created here, used while alive and destroyed once.
    unsafe {
        let mut set = ffi::duckdb_create_scalar_function_set(name.as_ptr());
        for overload in &overloads {
            let mut function = ffi::duckdb_create_scalar_function();
            ffi::duckdb_scalar_function_set_name(function, name.as_ptr());
            for parameter in &overload.parameters {
                ffi::duckdb_scalar_function_add_parameter(function, parameter.0);
            }
            ffi::duckdb_scalar_function_set_return_type(function, overload.result.0);
            ffi::duckdb_scalar_function_set_function(function, Some(overload.entry));
            if overload.volatile {
                ffi::duckdb_scalar_function_set_volatile(function);
            }
            let added = ffi::duckdb_add_scalar_function_to_set(set, function);
            ffi::duckdb_destroy_scalar_function(&mut function);
            if added != ffi::DuckDBSuccess {
                ffi::duckdb_destroy_scalar_function_set(&mut set);
                return Err(format!(
                    "hashring_lab: could not add an overload of {}",
                    name.to_string_lossy()
                ));
            }
        }
        let registered = ffi::duckdb_register_scalar_function_set(connection, set);
        ffi::duckdb_destroy_scalar_function_set(&mut set);
        if registered != ffi::DuckDBSuccess {
            return Err(format!(
                "hashring_lab: could not register {} (is the extension loaded twice?)",
                name.to_string_lossy()
            ));
        }
    }
    Ok(())
}

/// Registers every function on `connection`.
///
/// # Safety
///
/// `connection` is an open connection to the database being extended.
pub unsafe fn register(connection: ffi::duckdb_connection) -> Result<(), String> {
    let locates: [Entry; 4] = [locate_text, locate_blob, locate_signed, locate_unsigned];
    let moveses: [Entry; 4] = [moves_text, moves_blob, moves_signed, moves_unsigned];
    let per_key = |entries: [Entry; 4], clusters: usize, result: fn() -> LogicalType| {
        KeyKind::ALL
            .iter()
            .zip(entries)
            .map(|((_, key_type), entry)| Overload {
                parameters: (0..clusters)
                    .map(|_| LogicalType::varchar())
                    .chain([LogicalType::of(*key_type)])
                    .collect(),
                result: result(),
                entry,
                volatile: false,
            })
            .collect::<Vec<_>>()
    };
    // SAFETY: the caller's promise.
    unsafe {
        register_set(
            connection,
            c"hashring_locate",
            per_key(locates, 1, LogicalType::varchar),
        )?;
        register_set(
            connection,
            c"hashring_moves",
            per_key(moveses, 2, LogicalType::moves),
        )?;
        register_set(
            connection,
            c"hashring_cluster",
            vec![
                Overload {
                    parameters: vec![LogicalType::varchar(), LogicalType::varchar()],
                    result: LogicalType::varchar(),
                    entry: name_cluster_entry,
                    volatile: true,
                },
                Overload {
                    parameters: (0..3).map(|_| LogicalType::varchar()).collect(),
                    result: LogicalType::varchar(),
                    entry: name_stepped_cluster_entry,
                    volatile: true,
                },
            ],
        )
    }
}
