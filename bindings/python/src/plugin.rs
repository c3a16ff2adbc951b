//! The Polars expression plugin: `hashring_lab.polars.locate` and `moves` run inside
//! Polars' engine, on its threads, over its Arrow chunks — no Python function in the plan,
//! no interpreter lock per batch. Polars loads this same library (the extension module) by
//! path and calls the `_polars_plugin_*` functions below, as it calls any plugin built with
//! `pyo3-polars`; the interface is written out here instead (Polars' plugin ABI 0.1: a
//! series is its Arrow C schema and chunks), which keeps a second copy of Polars out of the
//! build — pyo3-polars brings Rust Polars, 435 CPU-seconds to compile here.
//!
//! The clusters come as keyword arguments, pickled by Polars: each a page link and the
//! steps applied since ([`Definition`]), built once per Polars worker thread.

use std::cell::RefCell;
use std::ffi::{c_char, c_void, CString};
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, ArrayRef};
use arrow_schema::{DataType, Field};
use serde::Deserialize;

use hashring_lab::configs::built::Definition;
use hashring_lab::engine::sim::Simulation;

use crate::columns::{locate_array, moved_schema, moves_array, Simulated};
use crate::Failure;

/// Polars' `SeriesExport` (plugin ABI version 0): a series' field and its chunks, and how
/// to release them. Whoever receives one owns it: it moves the chunks out, then calls
/// `release`, which frees the rest.
#[repr(C)]
pub struct SeriesExport {
    field: *mut FFI_ArrowSchema,
    arrays: *mut *mut FFI_ArrowArray,
    len: usize,
    release: Option<unsafe extern "C" fn(*mut SeriesExport)>,
    private_data: *mut c_void,
}

/// What the caller tells a plugin of its context (parallel or not); unused here.
#[repr(C)]
pub struct CallerContext {
    bitflags: u64,
}

/// The keyword arguments of both functions: the clusters, each as a link and steps.
#[derive(Deserialize)]
struct Kwargs {
    clusters: Vec<(String, Vec<String>)>,
}

/// A cluster named by its definition, as the columns compute from it.
struct Defined(Definition);

impl Simulated for Defined {
    fn simulation(&self) -> Result<Rc<Simulation>, Failure> {
        let built = self.0.built_here().map_err(Failure::Scenario)?;
        Ok(Rc::clone(&built.sim))
    }
}

thread_local! {
    /// The last failure on this thread, which Polars asks for right after a call fails.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|last| *last.borrow_mut() = text);
}

fn message(failure: Failure) -> String {
    match failure {
        Failure::Config(m) | Failure::Scenario(m) | Failure::Step(m) | Failure::Keys(m) => m,
    }
}

/// The plugin ABI this library speaks: 0.1 (the field function takes keyword arguments).
#[no_mangle]
pub extern "C" fn _polars_plugin_get_version() -> u32 {
    1
}

/// The last failure's message on this thread (Polars copies it at once).
#[no_mangle]
pub extern "C" fn _polars_plugin_get_last_error_message() -> *const c_char {
    LAST_ERROR.with(|last| last.borrow().as_ptr())
}

/// The clusters the keyword arguments name, `count` of them.
unsafe fn clusters(kwargs: *const u8, len: usize, count: usize) -> Result<Vec<Defined>, String> {
    let bytes = if kwargs.is_null() || len == 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(kwargs, len)
    };
    let args: Kwargs = serde_pickle::from_slice(bytes, serde_pickle::DeOptions::new())
        .map_err(|e| format!("hashring_lab: the plugin's arguments are unreadable ({e})"))?;
    if args.clusters.len() != count {
        return Err(format!(
            "hashring_lab: the plugin takes {count} cluster(s), was given {}",
            args.clusters.len()
        ));
    }
    Ok(args
        .clusters
        .into_iter()
        .map(|(text, steps)| Defined(Definition { text, steps }))
        .collect())
}

/// Takes the series Polars hands over: its field and chunks, then releases the export.
unsafe fn import_series(export: *mut SeriesExport) -> Result<(Field, Vec<ArrayRef>), String> {
    let mut export = std::ptr::read(export);
    let schema = &*export.field;
    let chunks = (0..export.len)
        .map(|i| {
            let array = std::ptr::read(*export.arrays.add(i));
            from_ffi(array, schema).map(make_array)
        })
        .collect::<Result<Vec<_>, _>>();
    let field = Field::try_from(schema);
    if let Some(release) = export.release {
        release(&mut export);
    }
    let chunks = chunks.map_err(|e| format!("hashring_lab: a key chunk is unreadable ({e})"))?;
    let field = field.map_err(|e| format!("hashring_lab: the key column is unreadable ({e})"))?;
    Ok((field, chunks))
}

/// What an exported series keeps until Polars releases it.
struct Exported {
    _schema: Box<FFI_ArrowSchema>,
    arrays: Box<[*mut FFI_ArrowArray]>,
}

/// Frees an exported series' boxes; its chunks belong to Polars, which moved them out.
unsafe extern "C" fn release_export(export: *mut SeriesExport) {
    let Some(export) = export.as_mut() else {
        return;
    };
    if export.private_data.is_null() {
        return;
    }
    let exported = Box::from_raw(export.private_data.cast::<Exported>());
    for &array in exported.arrays.iter() {
        drop(Box::from_raw(array.cast::<ManuallyDrop<FFI_ArrowArray>>()));
    }
    export.private_data = std::ptr::null_mut();
    export.release = None;
}

/// A series for Polars: `field` and its chunks.
fn export_series(field: &Field, chunks: &[ArrayRef]) -> Result<SeriesExport, String> {
    let schema =
        Box::new(FFI_ArrowSchema::try_from(field).map_err(|e| format!("hashring_lab: {e}"))?);
    let mut arrays = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        let (array, _) = to_ffi(&chunk.to_data()).map_err(|e| format!("hashring_lab: {e}"))?;
        arrays.push(Box::into_raw(Box::new(array)));
    }
    let mut arrays = arrays.into_boxed_slice();
    let export = SeriesExport {
        field: std::ptr::from_ref(schema.as_ref()).cast_mut(),
        arrays: arrays.as_mut_ptr(),
        len: arrays.len(),
        release: Some(release_export),
        private_data: Box::into_raw(Box::new(Exported {
            _schema: schema,
            arrays,
        }))
        .cast(),
    };
    Ok(export)
}

/// The output field of `function` for an input named `name`: the owner's name, or where
/// the key moves (a struct of `old_server` and `new_server`).
fn output_field(function: Function, name: &str) -> Field {
    match function {
        Function::Locate => Field::new(name, DataType::Utf8, true),
        Function::Moves => Field::new(
            name,
            DataType::Struct(moved_schema("key").fields()[1..].to_vec().into()),
            true,
        ),
    }
}

/// The two functions.
#[derive(Clone, Copy)]
enum Function {
    Locate,
    Moves,
}

impl Function {
    fn clusters(self) -> usize {
        match self {
            Function::Locate => 1,
            Function::Moves => 2,
        }
    }
}

/// Runs `work`, turning an error or a panic into Polars' last error (the return value is
/// then left empty, which Polars reads as a failure).
fn guarded(work: impl FnOnce() -> Result<(), String>) {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(Ok(())) => {}
        Ok(Err(message)) => set_last_error(&message),
        Err(_) => set_last_error("PANIC"),
    }
}

/// The field function: the output's name and type from the inputs'.
unsafe fn field_of(
    function: Function,
    fields: *const FFI_ArrowSchema,
    len: usize,
    return_value: *mut FFI_ArrowSchema,
) {
    guarded(|| {
        if len != 1 || fields.is_null() {
            return Err("hashring_lab: the plugin takes one key column".to_owned());
        }
        let input = Field::try_from(&*fields).map_err(|e| format!("hashring_lab: {e}"))?;
        let out = FFI_ArrowSchema::try_from(&output_field(function, input.name()))
            .map_err(|e| format!("hashring_lab: {e}"))?;
        std::ptr::write(return_value, out);
        Ok(())
    });
}

/// The expression: each chunk of the key column placed, chunk for chunk.
unsafe fn evaluate(
    function: Function,
    inputs: *mut SeriesExport,
    len: usize,
    kwargs: *const u8,
    kwargs_len: usize,
    return_value: *mut SeriesExport,
) {
    guarded(|| {
        // Every input is ours to release, whatever happens next.
        let series: Vec<_> = (0..len).map(|i| import_series(inputs.add(i))).collect();
        let series = series.into_iter().collect::<Result<Vec<_>, _>>()?;
        let [(field, chunks)] = <[_; 1]>::try_from(series)
            .map_err(|_| "hashring_lab: the plugin takes one key column".to_owned())?;
        let clusters = clusters(kwargs, kwargs_len, function.clusters())?;
        let out = chunks
            .iter()
            .map(|keys| match function {
                Function::Locate => locate_array(&clusters[0], keys.as_ref()),
                Function::Moves => moves_array(&clusters[0], &clusters[1], keys.as_ref()),
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(message)?;
        let export = export_series(&output_field(function, field.name()), &out)?;
        std::ptr::write(return_value, export);
        Ok(())
    });
}

/// Exports one function as Polars looks it up: `_polars_plugin_field_<name>` (its output's
/// field, plugin ABI 0.1) and `_polars_plugin_<name>` (the expression, ABI 0).
macro_rules! plugin_function {
    ($function:expr, $field:ident, $expression:ident) => {
        /// The output field of the function for its input's.
        ///
        /// # Safety
        /// Polars' plugin ABI 0.1: `fields` points to `len` schemas, `return_value` to an
        /// empty one.
        #[no_mangle]
        pub unsafe extern "C" fn $field(
            fields: *const FFI_ArrowSchema,
            len: usize,
            return_value: *mut FFI_ArrowSchema,
            _kwargs: *const u8,
            _kwargs_len: usize,
        ) {
            field_of($function, fields, len, return_value);
        }

        /// The expression over one series of keys.
        ///
        /// # Safety
        /// Polars' plugin ABI 0: `inputs` points to `len` series this function now owns,
        /// `kwargs` to `kwargs_len` pickled bytes, `return_value` to an empty series.
        #[no_mangle]
        pub unsafe extern "C" fn $expression(
            inputs: *mut SeriesExport,
            len: usize,
            kwargs: *const u8,
            kwargs_len: usize,
            return_value: *mut SeriesExport,
            _context: *const CallerContext,
        ) {
            evaluate($function, inputs, len, kwargs, kwargs_len, return_value);
        }
    };
}

// `locate`: each key's owner.
plugin_function!(
    Function::Locate,
    _polars_plugin_field_locate,
    _polars_plugin_locate
);
// `moves`: where each key moves, a struct, null where it stays.
plugin_function!(
    Function::Moves,
    _polars_plugin_field_moves,
    _polars_plugin_moves
);
