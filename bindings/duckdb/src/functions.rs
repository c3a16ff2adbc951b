//! The SQL functions: their signatures as DuckDB registers them, and their bodies over a
//! chunk of rows. A body's problem becomes the query's error (DuckDB stops the query and
//! shows the message); a panic is caught at the boundary, never unwound into DuckDB.

use std::ffi::{c_char, CStr, CString};
use std::rc::Rc;

use libduckdb_sys as ffi;

use std::sync::Arc;

use crate::clusters::{Built, Registry};
use crate::vectors::{set_null, set_text, Column, KeyKind};

/// One call of a function: the database's registry of names, the chunk of rows in, the
/// vector out.
struct Call<'a> {
    registry: &'a Registry,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
}

impl Call<'_> {
    /// The chunk's rows.
    fn rows(&self) -> u64 {
        // SAFETY: `input` is DuckDB's chunk for this call.
        unsafe { ffi::duckdb_data_chunk_get_size(self.input) }
    }

    /// Input column `index`.
    ///
    /// # Safety
    ///
    /// The function's signature has more than `index` parameters.
    unsafe fn column(&self, index: u64) -> Column {
        // SAFETY: the caller's promise.
        unsafe { Column::of(self.input, index) }
    }

    /// Input column `index`, of clusters.
    ///
    /// # Safety
    ///
    /// As [`Call::column`], for a VARCHAR parameter.
    unsafe fn clusters(&self, index: u64) -> ClusterColumn<'_> {
        ClusterColumn {
            registry: self.registry,
            // SAFETY: the caller's promise.
            column: unsafe { self.column(index) },
            current: None,
        }
    }
}

/// A function's body over one call.
type Body = unsafe fn(&Call) -> Result<(), String>;

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
    // SAFETY: `input` and `output` are the chunk and vector DuckDB passed to this call; the
    // extra info is the registry `register` gave every function, alive while it is.
    let outcome = std::panic::catch_unwind(|| unsafe {
        let registry = &*ffi::duckdb_scalar_function_get_extra_info(info).cast::<Registry>();
        body(&Call {
            registry,
            input,
            output,
        })
    })
    .unwrap_or_else(|_| Err("hashring_lab: internal error (a panic), please report it".to_owned()));
    if let Err(message) = outcome {
        let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: `info` is this call's; DuckDB copies the message.
        unsafe { ffi::duckdb_scalar_function_set_error(info, text.as_ptr()) }
    }
}

/// The cluster a column names at a row, rebuilt only when the text changes from the row
/// before (a query names one cluster for every row, as a constant).
struct ClusterColumn<'a> {
    registry: &'a Registry,
    column: Column,
    current: Option<(String, Rc<Built>)>,
}

impl ClusterColumn<'_> {
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
        let built = self.registry.cluster(spec)?;
        self.current = Some((spec.to_owned(), Rc::clone(&built)));
        Ok(Some(built))
    }
}

/// `hashring_locate(cluster, key)` for keys of `kind`.
unsafe fn locate(kind: KeyKind, call: &Call) -> Result<(), String> {
    let output = call.output;
    // SAFETY: columns 0 and 1 are the cluster and the key; rows below the chunk's size.
    unsafe {
        let mut clusters = call.clusters(0);
        let keys = call.column(1);
        let mut buffer = itoa::Buffer::new();
        for row in 0..call.rows() {
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
unsafe fn moves(kind: KeyKind, call: &Call) -> Result<(), String> {
    let output = call.output;
    // SAFETY: columns 0, 1 and 2 are the clusters and the key; the output is the struct
    // of two VARCHARs; rows below the chunk's size.
    unsafe {
        let (mut before, mut after) = (call.clusters(0), call.clusters(1));
        let keys = call.column(2);
        let (old, new) = (
            ffi::duckdb_struct_vector_get_child(output, 0),
            ffi::duckdb_struct_vector_get_child(output, 1),
        );
        let mut buffer = itoa::Buffer::new();
        for row in 0..call.rows() {
            let (b, a) = (before.at(row)?, after.at(row)?);
            if let (Some(b), Some(a), Some(key)) = (b, a, keys.key(kind, row, &mut buffer)?) {
                let (from, to) = (b.owner(key)?, a.owner(key)?);
                if from != to {
                    set_text(old, row, from);
                    set_text(new, row, to);
                    continue;
                }
            }
            // Stays (or a NULL): the row is NULL, and so are its fields.
            set_null(output, row);
            set_null(old, row);
            set_null(new, row);
        }
    }
    Ok(())
}

/// `hashring_cluster(name, cluster[, step])`: registers the name (for the cluster with the
/// step applied), answers the cluster in words.
unsafe fn name_cluster(with_step: bool, call: &Call) -> Result<(), String> {
    let (registry, output) = (call.registry, call.output);
    // SAFETY: columns 0, 1 (and 2 with a step) are VARCHARs; rows below the chunk's size.
    unsafe {
        let (names, specs) = (call.column(0), call.column(1));
        let steps = with_step.then(|| call.column(2));
        for row in 0..call.rows() {
            let step = steps.as_ref().map(|s| s.text(row));
            match (names.text(row), specs.text(row), step) {
                (Some(name), Some(spec), None) => {
                    set_text(output, row, Some(&registry.register(name, spec, None)?));
                }
                (Some(name), Some(spec), Some(Some(step))) => {
                    set_text(
                        output,
                        row,
                        Some(&registry.register(name, spec, Some(step))?),
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

entry!(locate_text, |call| locate(KeyKind::Text, call));
entry!(locate_blob, |call| locate(KeyKind::Blob, call));
entry!(locate_signed, |call| locate(KeyKind::Signed, call));
entry!(locate_unsigned, |call| locate(KeyKind::Unsigned, call));
entry!(moves_text, |call| moves(KeyKind::Text, call));
entry!(moves_blob, |call| moves(KeyKind::Blob, call));
entry!(moves_signed, |call| moves(KeyKind::Signed, call));
entry!(moves_unsigned, |call| moves(KeyKind::Unsigned, call));
entry!(name_cluster_entry, |call| name_cluster(false, call));
entry!(name_stepped_cluster_entry, |call| name_cluster(true, call));

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

/// Lets go of one function's share of the registry (DuckDB calls it when the function goes).
unsafe extern "C" fn release_registry(registry: *mut std::ffi::c_void) {
    // SAFETY: the pointer is one `Arc::into_raw` made for this function, released once.
    drop(unsafe { Arc::from_raw(registry.cast::<Registry>()) });
}

/// Registers `name` with its overloads on `connection`, each holding a share of `registry`.
unsafe fn register_set(
    connection: ffi::duckdb_connection,
    registry: &Arc<Registry>,
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
            ffi::duckdb_scalar_function_set_extra_info(
                function,
                Arc::into_raw(Arc::clone(registry)).cast_mut().cast(),
                Some(release_registry),
            );
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

/// Registers every function on `connection`, sharing one registry of named clusters (the
/// database's).
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
    let registry = Arc::new(Registry::default());
    // SAFETY: the caller's promise.
    unsafe {
        register_set(
            connection,
            &registry,
            c"hashring_locate",
            per_key(locates, 1, LogicalType::varchar),
        )?;
        register_set(
            connection,
            &registry,
            c"hashring_moves",
            per_key(moveses, 2, LogicalType::moves),
        )?;
        register_set(
            connection,
            &registry,
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
