//! Arrow key columns from Python, each array checked before a key is read.
//!
//! The Arrow C interfaces hand over raw buffers: nothing stops a producer from sending a
//! batch that contradicts the type it declared (pyarrow's `RecordBatchReader.from_batches`
//! does not check its batches against its schema), or a string column whose bytes are not
//! UTF-8 (`binary.view(pa.string())`). Read as declared, such buffers make Arrow's array
//! constructors panic — which reaches Python as a `PanicException` — or are read past their
//! end. So every array is validated in full (buffer count and sizes, offsets, UTF-8, nested
//! children) against the declared type first, and refused as a `KeyColumnError` saying which
//! batch and what is wrong. The stream is read here rather than by pyo3-arrow's reader,
//! which builds each batch's array before anyone can check it.

use arrow_array::ffi::{from_ffi_and_data_type, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{make_array, ArrayRef};
use arrow_schema::{DataType, Field};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use pyo3_arrow::PyArray;

use crate::Failure;

/// Keys as Arrow hands them over: one array, or a stream of them; each with the key
/// column's name when it has one (a Polars series', a one-column table's).
pub(crate) enum ArrowKeys {
    Array(ArrayRef, Option<String>),
    Stream(KeyStream),
}

impl ArrowKeys {
    /// The key column's own name, when it has one.
    pub(crate) fn name(&self) -> Option<&str> {
        match self {
            ArrowKeys::Array(_, name) => name.as_deref(),
            ArrowKeys::Stream(stream) => stream.name.as_deref(),
        }
    }
}

/// The name of the key column a field stands for: a one-column table's column, else the
/// field's own; None when empty (a pyarrow array's field has no name).
fn column_name(field: &Field) -> Option<String> {
    let field = match field.data_type() {
        DataType::Struct(fields) if fields.len() == 1 => &fields[0],
        _ => field,
    };
    Some(field.name().clone()).filter(|n| !n.is_empty())
}

/// `keys` as Arrow (an object with `__arrow_c_array__` or `__arrow_c_stream__`), or None.
pub(crate) fn arrow_keys_of(keys: &Bound<'_, PyAny>) -> PyResult<Option<ArrowKeys>> {
    let py = keys.py();
    if keys.hasattr(intern!(py, "__arrow_c_array__"))? {
        let array: PyArray = keys.extract()?;
        let (array, field) = array.into_inner();
        checked(&array)?;
        return Ok(Some(ArrowKeys::Array(array, column_name(&field))));
    }
    if keys.hasattr(intern!(py, "__arrow_c_stream__"))? {
        let capsule = keys
            .getattr(intern!(py, "__arrow_c_stream__"))?
            .call0()?
            .cast_into::<PyCapsule>()?;
        return Ok(Some(ArrowKeys::Stream(KeyStream::from_capsule(&capsule)?)));
    }
    Ok(None)
}

/// Refuses a column whose buffers do not hold what its type says (a stream's batches are
/// checked as they are imported, in [`KeyStream`]).
fn checked(array: &ArrayRef) -> Result<(), Failure> {
    array.to_data().validate_full().map_err(|e| {
        Failure::Keys(format!(
            "the key column does not hold what its Arrow type {} says ({}); keys are placed only from well-formed columns",
            array.data_type(),
            short(&e.to_string())
        ))
    })
}

/// Arrow's own message, cut to a readable length.
fn short(message: &str) -> String {
    const MAX: usize = 120;
    match message.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &message[..at]),
        None => message.to_owned(),
    }
}

/// A C stream of key arrays, each validated against the stream's declared type.
pub(crate) struct KeyStream {
    stream: FFI_ArrowArrayStream,
    data_type: DataType,
    name: Option<String>,
    batch: usize,
}

impl KeyStream {
    fn from_capsule(capsule: &Bound<'_, PyCapsule>) -> PyResult<KeyStream> {
        let pointer = capsule
            .pointer_checked(Some(c"arrow_array_stream"))?
            .cast::<FFI_ArrowArrayStream>();
        // SAFETY: the capsule holds an `ArrowArrayStream` (its name says so, checked above);
        // `from_raw` moves it out and leaves the capsule's copy released.
        let mut stream = unsafe { FFI_ArrowArrayStream::from_raw(pointer.as_ptr()) };
        let Some(get_schema) = stream.get_schema else {
            return Err(Failure::Keys("the Arrow stream is already released".into()).into());
        };
        let mut schema = FFI_ArrowSchema::empty();
        // SAFETY: a live stream's callback, given a stream and an empty schema to fill.
        let code = unsafe { get_schema(&mut stream, &mut schema) };
        if code != 0 {
            return Err(Failure::Keys(format!(
                "the Arrow stream gave no schema (error code {code})"
            ))
            .into());
        }
        let field = Field::try_from(&schema)
            .map_err(|e| Failure::Keys(format!("the Arrow stream's schema: {e}")))?;
        Ok(KeyStream {
            stream,
            data_type: field.data_type().clone(),
            name: column_name(&field),
            batch: 0,
        })
    }

    /// The stream's last error in its own words.
    fn last_error(&mut self) -> String {
        let Some(get_last_error) = self.stream.get_last_error else {
            return "no message".into();
        };
        // SAFETY: a live stream's callback; it returns null or a C string the stream owns.
        let text = unsafe { get_last_error(&mut self.stream) };
        if text.is_null() {
            return "no message".into();
        }
        // SAFETY: non-null, a NUL-terminated string valid until the next call.
        unsafe { std::ffi::CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}

impl Iterator for KeyStream {
    type Item = Result<ArrayRef, Failure>;

    fn next(&mut self) -> Option<Self::Item> {
        let get_next = self.stream.get_next?;
        let mut array = FFI_ArrowArray::empty();
        // SAFETY: a live stream's callback, given an empty array to fill.
        let code = unsafe { get_next(&mut self.stream, &mut array) };
        if code != 0 {
            let message = self.last_error();
            return Some(Err(Failure::Keys(format!(
                "the Arrow stream failed at batch {}: {}",
                self.batch + 1,
                short(&message)
            ))));
        }
        if array.is_released() {
            return None;
        }
        self.batch += 1;
        // A column of nulls holds no keys, only its length (Polars sends a validity buffer
        // with it, which Arrow's import of the Null type refuses).
        if self.data_type == DataType::Null {
            return Some(Ok(arrow_array::new_null_array(
                &DataType::Null,
                array.len(),
            )));
        }
        // SAFETY: the array came from the stream; its buffers are only trusted after
        // `validate_full` below, before any array is built over them.
        let data = match unsafe { from_ffi_and_data_type(array, self.data_type.clone()) } {
            Ok(data) => data,
            Err(e) => {
                return Some(Err(Failure::Keys(format!(
                    "batch {} could not be read as {}: {}",
                    self.batch,
                    self.data_type,
                    short(&e.to_string())
                ))))
            }
        };
        if let Err(e) = data.validate_full() {
            return Some(Err(Failure::Keys(format!(
                "batch {} does not hold what the stream's type {} says ({}); keys are placed only from well-formed columns",
                self.batch,
                self.data_type,
                short(&e.to_string())
            ))));
        }
        Some(Ok(make_array(data)))
    }
}
