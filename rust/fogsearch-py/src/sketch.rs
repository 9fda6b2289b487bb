//! `fogsearch._core.sketch`, the bindings for `fogsearch_core::sketch`: argument conversion,
//! GIL-free calls, pickling and reprs.
//!
//! Sizes (`k`, `width`, `depth`) go through the core's `check_*` functions before anything is
//! allocated, so a size beyond its limit raises `SketchError` with the core's sentence (the
//! parameter, the limit, the memory it would need).
//!
//! Keys: a numpy `uint64` array is borrowed without copying (a non-contiguous one is copied);
//! other integer arrays, Python ints, numpy integer scalars and sequences of them are converted
//! when every value lies in `[0, 2**64)` (negative values are refused rather than reinterpreted);
//! floats, bools, strings and arrays of more than one dimension are refused with a
//! `TypeError`/`ValueError`. Every check runs before the sketch is touched, and the core validates
//! lengths before mutating, so a refused call leaves the sketch as it was.

use fogsearch_core::sketch as core;
use fogsearch_core::sketch::SizeEstimates;
use numpy::{
    PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString};

use crate::errors::{detach_guarded, read, write, FogsearchError};
use crate::pickle;

pyo3::create_exception!(
    fogsearch,
    SketchError,
    FogsearchError,
    "A sketch parameter, comparison or serialised form was invalid."
);

fn sketch_err(error: core::SketchError) -> PyErr {
    SketchError::new_err(error.to_string())
}

// ---- argument conversion -----------------------------------------------------------------------

/// A batch of `u64` values: borrowed from a numpy array when possible, else converted.
enum Batch<'py, T: numpy::Element> {
    Borrowed(PyReadonlyArray1<'py, T>),
    Owned(Vec<T>),
}

impl<T: numpy::Element + Copy> Batch<'_, T> {
    fn as_slice(&self) -> &[T] {
        match self {
            Batch::Borrowed(array) => array.as_slice().expect("checked contiguous"),
            Batch::Owned(values) => values,
        }
    }
}

/// Keys in any accepted form, and whether a single Python int was given.
fn extract_keys<'py>(obj: &Bound<'py, PyAny>) -> PyResult<(Batch<'py, u64>, bool)> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(
            "keys must be integers in [0, 2**64), got a bool",
        ));
    }
    if let Some(int) = int_like(obj)? {
        return Ok((Batch::Owned(vec![key_from_int(&int)?]), true));
    }
    if let Ok(array) = obj.extract::<PyReadonlyArray1<'py, u64>>() {
        if array.is_contiguous() {
            return Ok((Batch::Borrowed(array), false));
        }
        return Ok((Batch::Owned(array.as_array().to_vec()), false));
    }
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        check_one_dimensional("keys", array)?;
        let converted = integer_array_as(array, "keys", "uint64", true)?;
        let values = converted
            .extract::<PyReadonlyArray1<'py, u64>>()?
            .as_array()
            .to_vec();
        return Ok((Batch::Owned(values), false));
    }
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "keys must be integers or an array of them, got a string",
        ));
    }
    let iterator = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "keys must be an int, a numpy uint64 array or a sequence of ints, got {}",
            type_name(obj)
        ))
    })?;
    let mut keys = Vec::new();
    for item in iterator {
        let item = item?;
        match int_like(&item)? {
            Some(int) if !item.is_instance_of::<PyBool>() => keys.push(key_from_int(&int)?),
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "keys must be integers in [0, 2**64), found {}",
                    type_name(&item)
                )))
            }
        }
    }
    Ok((Batch::Owned(keys), false))
}

/// An int-like scalar as a Python int: ints and numpy integer scalars (through `__index__`).
/// `None` for bools (refused by callers) and for anything that is not an integer scalar.
fn int_like<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Some(obj.clone()));
    }
    if obj.cast::<PyUntypedArray>().is_err() && obj.hasattr("__index__")? {
        return obj.call_method0("__index__").map(Some);
    }
    Ok(None)
}

fn key_from_int(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    obj.extract::<u64>()
        .map_err(|_| PyValueError::new_err(format!("key {obj} is outside [0, 2**64)")))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an object".to_string())
}

fn check_one_dimensional(what: &str, array: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    if array.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "{what} must be a 1-D array, got an array of shape ({})",
            array
                .shape()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(())
}

/// Converts an integer array of another dtype to `target` after checking its range; refuses
/// non-integer dtypes.
fn integer_array_as<'py>(
    array: &Bound<'py, PyUntypedArray>,
    what: &str,
    target: &str,
    unsigned_target: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let dtype = array.dtype();
    let kind = dtype.kind();
    if kind != b'i' && kind != b'u' {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an integer array ({target} preferred), got dtype {}",
            dtype.str()?
        )));
    }
    if array.len() > 0 {
        if unsigned_target && kind == b'i' && array.call_method0("min")?.extract::<i64>()? < 0 {
            return Err(PyValueError::new_err(format!(
                "{what} must be non-negative (keys are unsigned 64-bit), found a negative value"
            )));
        }
        if !unsigned_target
            && kind == b'u'
            && array.call_method0("max")?.extract::<u64>()? > i64::MAX as u64
        {
            return Err(PyValueError::new_err(format!("{what} must fit in int64")));
        }
    }
    array.call_method1("astype", (target,))
}

/// Weights: `None`, an int (for a single key), an integer array or a sequence of ints.
fn extract_weights<'py>(obj: Option<&Bound<'py, PyAny>>) -> PyResult<Option<Batch<'py, i64>>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("weights must be integers, got a bool"));
    }
    if let Some(int) = int_like(obj)? {
        return Ok(Some(Batch::Owned(vec![weight_from_int(&int)?])));
    }
    if let Ok(array) = obj.extract::<PyReadonlyArray1<'py, i64>>() {
        if array.is_contiguous() {
            return Ok(Some(Batch::Borrowed(array)));
        }
        return Ok(Some(Batch::Owned(array.as_array().to_vec())));
    }
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        check_one_dimensional("weights", array)?;
        let converted = integer_array_as(array, "weights", "int64", false)?;
        let values = converted
            .extract::<PyReadonlyArray1<'py, i64>>()?
            .as_array()
            .to_vec();
        return Ok(Some(Batch::Owned(values)));
    }
    let iterator = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "weights must be ints or an array, got {}",
            type_name(obj)
        ))
    })?;
    let mut weights = Vec::new();
    for item in iterator {
        let item = item?;
        match int_like(&item)? {
            Some(int) if !item.is_instance_of::<PyBool>() => weights.push(weight_from_int(&int)?),
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "weights must be integers, found {}",
                    type_name(&item)
                )))
            }
        }
    }
    Ok(Some(Batch::Owned(weights)))
}

fn weight_from_int(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    obj.extract::<i64>()
        .map_err(|_| PyValueError::new_err(format!("weight {obj} does not fit in int64")))
}

/// A size parameter (`k`, `width`, `depth`): an int, checked against its limit by the core's
/// `check_*` functions before anything is allocated. A negative value is refused here with the
/// core's wording; one beyond 64 bits becomes `u64::MAX`, which every limit refuses ("or more").
fn size_param(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, got a bool"
        )));
    }
    let Some(int) = int_like(obj)? else {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, got {}",
            type_name(obj)
        )));
    };
    if let Ok(value) = int.extract::<u64>() {
        return Ok(value);
    }
    if int.lt(0)? {
        return Err(SketchError::new_err(format!(
            "{name} must be at least 1, got {int}"
        )));
    }
    Ok(u64::MAX)
}

/// A checked size as the core's `usize` (every limit is far below `usize::MAX` on 64-bit
/// machines, so this never truncates a checked value).
fn checked(value: u64) -> usize {
    value as usize
}

fn seed_param(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("seed must be an int, got a bool"));
    }
    let Some(int) = int_like(obj)? else {
        return Err(PyTypeError::new_err(format!(
            "seed must be an int, got {}",
            type_name(obj)
        )));
    };
    int.extract::<u64>()
        .map_err(|_| PyValueError::new_err(format!("seed must be in [0, 2**64), got {int}")))
}

/// One key (`mix64`, `in`): an int or numpy integer scalar in `[0, 2**64)`; bools, floats and
/// other types raise `TypeError`, values out of range `ValueError`.
fn scalar_key(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    match int_like(obj)? {
        Some(int) => key_from_int(&int),
        None => Err(PyTypeError::new_err(format!(
            "key must be an int or a numpy integer in [0, 2**64), got {}",
            type_name(obj)
        ))),
    }
}

/// Known set sizes: both or neither.
fn sizes_param(size_self: Option<f64>, size_other: Option<f64>) -> PyResult<Option<(f64, f64)>> {
    match (size_self, size_other) {
        (None, None) => Ok(None),
        (Some(a), Some(b)) => Ok(Some((a, b))),
        _ => Err(PyValueError::new_err(
            "give both size_self and size_other, or neither",
        )),
    }
}

// ---- CountSketch -------------------------------------------------------------------------------

// Every method takes `slf: &Bound<Self>` and borrows through `read`/`write`: a call on a sketch
// that another thread holds (an `update` runs without the GIL, keeping its borrow) raises
// `ConcurrentUseError` instead of PyO3's bare `RuntimeError: Already borrowed`.

#[pyclass(module = "fogsearch._core.sketch", name = "CountSketch")]
pub struct PyCountSketch {
    inner: core::CountSketch,
}

#[pymethods]
impl PyCountSketch {
    #[new]
    #[pyo3(signature = (width, depth, seed = None))]
    fn new(
        width: &Bound<'_, PyAny>,
        depth: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let seed = seed.map(seed_param).transpose()?.unwrap_or(0);
        let (width, depth) = (size_param("width", width)?, size_param("depth", depth)?);
        core::check_count_sketch_shape(width, depth).map_err(sketch_err)?;
        let inner =
            core::CountSketch::new(checked(width), checked(depth), seed).map_err(sketch_err)?;
        Ok(PyCountSketch { inner })
    }

    /// Adds `weights[i]` (default 1) occurrences of `keys[i]`; counters saturate.
    #[pyo3(signature = (keys, weights = None))]
    fn update(
        slf: &Bound<'_, Self>,
        keys: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let (keys, _) = extract_keys(keys)?;
        let weights = extract_weights(weights)?;
        let (keys, weights) = (keys.as_slice(), weights.as_ref().map(|w| w.as_slice()));
        let mut this = write(slf)?;
        let sketch = &mut this.inner;
        detach_guarded(slf.py(), || sketch.update_many(keys, weights))?.map_err(sketch_err)
    }

    /// Median-of-rows estimates: an int for an int, an int64 array otherwise.
    fn estimate<'py>(
        slf: &Bound<'py, Self>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let (keys, scalar) = extract_keys(keys)?;
        let this = read(slf)?;
        if scalar {
            return Ok(this
                .inner
                .estimate(keys.as_slice()[0])
                .into_pyobject(py)?
                .into_any());
        }
        let sketch = &this.inner;
        let keys = keys.as_slice();
        let estimates = detach_guarded(py, || sketch.estimate_many(keys))?;
        Ok(PyArray1::from_vec(py, estimates).into_any())
    }

    /// Adds `other`'s counters; `sketch.merge(sketch)` doubles every count.
    fn merge(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> PyResult<()> {
        if slf.is(other) {
            let copy = read(slf)?.inner.clone();
            return write(slf)?.inner.merge(&copy).map_err(sketch_err);
        }
        let other = read(other)?;
        write(slf)?.inner.merge(&other.inner).map_err(sketch_err)
    }

    fn clear(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.inner.clear();
        Ok(())
    }

    #[getter]
    fn width(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.width())
    }

    #[getter]
    fn depth(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.depth())
    }

    #[getter]
    fn seed(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(read(slf)?.inner.seed())
    }

    /// The counters as a `(depth, width)` int64 array (a copy).
    #[getter]
    fn counters<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let this = read(slf)?;
        let flat = PyArray1::from_slice(slf.py(), this.inner.counters());
        flat.reshape([this.inner.depth(), this.inner.width()])
            .map(|a| a.into_any())
    }

    fn to_bytes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(slf.py(), &read(slf)?.inner.to_bytes()))
    }

    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyCountSketch {
            inner: core::CountSketch::from_bytes(data).map_err(sketch_err)?,
        })
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        pickle::reduce::<Self>(slf.py(), &read(slf)?.inner.to_bytes())
    }

    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(read(slf)?.inner == read(other)?.inner)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = read(slf)?;
        Ok(format!(
            "CountSketch(width={}, depth={}, seed={})",
            this.inner.width(),
            this.inner.depth(),
            this.inner.seed()
        ))
    }
}

// ---- TopK --------------------------------------------------------------------------------------

#[pyclass(module = "fogsearch._core.sketch", name = "TopK")]
pub struct PyTopK {
    inner: core::TopK,
}

#[pymethods]
impl PyTopK {
    #[new]
    #[pyo3(signature = (k, width, depth, seed = None))]
    fn new(
        k: &Bound<'_, PyAny>,
        width: &Bound<'_, PyAny>,
        depth: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let seed = seed.map(seed_param).transpose()?.unwrap_or(0);
        let k = size_param("k", k)?;
        let (width, depth) = (size_param("width", width)?, size_param("depth", depth)?);
        core::check_top_k(k, width, depth).map_err(sketch_err)?;
        let inner = core::TopK::new(checked(k), checked(width), checked(depth), seed)
            .map_err(sketch_err)?;
        Ok(PyTopK { inner })
    }

    /// Adds occurrences; returns the new estimate for a single int key, else None.
    #[pyo3(signature = (keys, weights = None))]
    fn update(
        slf: &Bound<'_, Self>,
        keys: &Bound<'_, PyAny>,
        weights: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<i64>> {
        let (keys, scalar) = extract_keys(keys)?;
        let weights = extract_weights(weights)?;
        if scalar {
            let weight = match &weights {
                None => 1,
                Some(w) if w.as_slice().len() == 1 => w.as_slice()[0],
                Some(w) => {
                    return Err(PyValueError::new_err(format!(
                        "a single key takes a single weight, got {}",
                        w.as_slice().len()
                    )))
                }
            };
            return Ok(Some(write(slf)?.inner.update(keys.as_slice()[0], weight)));
        }
        let (keys, weights) = (keys.as_slice(), weights.as_ref().map(|w| w.as_slice()));
        let mut this = write(slf)?;
        let top = &mut this.inner;
        detach_guarded(slf.py(), || top.update_many(keys, weights))?.map_err(sketch_err)?;
        Ok(None)
    }

    /// (key, estimate) pairs, highest estimate first; each estimate is `estimate(key)`.
    fn items(slf: &Bound<'_, Self>) -> PyResult<Vec<(u64, i64)>> {
        Ok(read(slf)?.inner.items())
    }

    fn estimate<'py>(
        slf: &Bound<'py, Self>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let (keys, scalar) = extract_keys(keys)?;
        let this = read(slf)?;
        if scalar {
            return Ok(this
                .inner
                .estimate(keys.as_slice()[0])
                .into_pyobject(py)?
                .into_any());
        }
        let sketch = this.inner.sketch();
        let keys = keys.as_slice();
        let estimates = detach_guarded(py, || sketch.estimate_many(keys))?;
        Ok(PyArray1::from_vec(py, estimates).into_any())
    }

    fn clear(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.inner.clear();
        Ok(())
    }

    #[getter]
    fn k(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.k())
    }

    #[getter]
    fn width(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.sketch().width())
    }

    #[getter]
    fn depth(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.sketch().depth())
    }

    #[getter]
    fn seed(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(read(slf)?.inner.sketch().seed())
    }

    fn __len__(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.len())
    }

    fn __contains__(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        let key = scalar_key(key)?;
        Ok(read(slf)?.inner.contains(key))
    }

    fn to_bytes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(slf.py(), &read(slf)?.inner.to_bytes()))
    }

    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyTopK {
            inner: core::TopK::from_bytes(data).map_err(sketch_err)?,
        })
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        pickle::reduce::<Self>(slf.py(), &read(slf)?.inner.to_bytes())
    }

    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(read(slf)?.inner == read(other)?.inner)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = read(slf)?;
        let sketch = this.inner.sketch();
        Ok(format!(
            "TopK(k={}, width={}, depth={}, seed={}, tracked={})",
            this.inner.k(),
            sketch.width(),
            sketch.depth(),
            sketch.seed(),
            this.inner.len()
        ))
    }
}

// ---- MinHash -----------------------------------------------------------------------------------

#[pyclass(module = "fogsearch._core.sketch", name = "MinHash")]
pub struct PyMinHash {
    inner: core::MinHash,
}

#[pymethods]
impl PyMinHash {
    #[new]
    #[pyo3(signature = (k, seed = None, kind = "bottom_k"))]
    fn new(k: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>, kind: &str) -> PyResult<Self> {
        let seed = seed.map(seed_param).transpose()?.unwrap_or(0);
        let kind = core::MinHashKind::from_name(kind).ok_or_else(|| {
            PyValueError::new_err(format!("kind must be 'bottom_k' or 'k_hash', got {kind:?}"))
        })?;
        let k = size_param("k", k)?;
        core::check_minhash_k(kind, k).map_err(sketch_err)?;
        let inner = core::MinHash::new(kind, checked(k), seed).map_err(sketch_err)?;
        Ok(PyMinHash { inner })
    }

    /// Adds keys to the set (an int, an array or a sequence).
    fn update(slf: &Bound<'_, Self>, keys: &Bound<'_, PyAny>) -> PyResult<()> {
        let (keys, _) = extract_keys(keys)?;
        let keys = keys.as_slice();
        let mut this = write(slf)?;
        let signature = &mut this.inner;
        detach_guarded(slf.py(), || signature.extend(keys))
    }

    fn jaccard(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> PyResult<f64> {
        read(slf)?
            .inner
            .jaccard(&read(other)?.inner)
            .map_err(sketch_err)
    }

    #[pyo3(signature = (other, size_self = None, size_other = None))]
    fn intersection_size(
        slf: &Bound<'_, Self>,
        other: &Bound<'_, Self>,
        size_self: Option<f64>,
        size_other: Option<f64>,
    ) -> PyResult<f64> {
        let sizes = sizes_param(size_self, size_other)?;
        let (this, other) = (read(slf)?, read(other)?);
        match sizes {
            None => this.inner.intersection_size(&other.inner),
            Some(sizes) => this.inner.intersection_size_with_sizes(&other.inner, sizes),
        }
        .map_err(sketch_err)
    }

    #[pyo3(signature = (other, size_self = None, size_other = None))]
    fn containment(
        slf: &Bound<'_, Self>,
        other: &Bound<'_, Self>,
        size_self: Option<f64>,
        size_other: Option<f64>,
    ) -> PyResult<f64> {
        let sizes = sizes_param(size_self, size_other)?;
        let (this, other) = (read(slf)?, read(other)?);
        match sizes {
            None => this.inner.containment(&other.inner),
            Some(sizes) => this.inner.containment_with_sizes(&other.inner, sizes),
        }
        .map_err(sketch_err)
    }

    fn cardinality(slf: &Bound<'_, Self>) -> PyResult<f64> {
        Ok(read(slf)?.inner.cardinality())
    }

    /// Becomes the signature of the union; merging a signature with itself changes nothing.
    fn merge(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> PyResult<()> {
        if slf.is(other) {
            // Still refuse while another thread holds it, as every other call does.
            write(slf)?;
            return Ok(());
        }
        let other = read(other)?;
        write(slf)?.inner.merge(&other.inner).map_err(sketch_err)
    }

    fn clear(slf: &Bound<'_, Self>) -> PyResult<()> {
        write(slf)?.inner.clear();
        Ok(())
    }

    fn copy(slf: &Bound<'_, Self>) -> PyResult<Self> {
        Ok(PyMinHash {
            inner: read(slf)?.inner.clone(),
        })
    }

    #[getter]
    fn k(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(read(slf)?.inner.k())
    }

    #[getter]
    fn seed(slf: &Bound<'_, Self>) -> PyResult<u64> {
        Ok(read(slf)?.inner.seed())
    }

    #[getter]
    fn kind(slf: &Bound<'_, Self>) -> PyResult<&'static str> {
        Ok(read(slf)?.inner.kind().name())
    }

    /// The signature as a uint64 array (a copy): ascending bottom-k values, or the k slot minima.
    #[getter]
    fn signature<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        Ok(PyArray1::from_slice(slf.py(), read(slf)?.inner.values()))
    }

    fn to_bytes<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(slf.py(), &read(slf)?.inner.to_bytes()))
    }

    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyMinHash {
            inner: core::MinHash::from_bytes(data).map_err(sketch_err)?,
        })
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        pickle::reduce::<Self>(slf.py(), &read(slf)?.inner.to_bytes())
    }

    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(read(slf)?.inner == read(other)?.inner)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = read(slf)?;
        Ok(format!(
            "MinHash(k={}, seed={}, kind='{}')",
            this.inner.k(),
            this.inner.seed(),
            this.inner.kind().name()
        ))
    }
}

// ---- functions ---------------------------------------------------------------------------------

/// Order-independent 64-bit id of a collection of keys (a multiset id; see the core's `set_id`).
#[pyfunction]
fn set_id(py: Python<'_>, keys: &Bound<'_, PyAny>) -> PyResult<u64> {
    let (keys, _) = extract_keys(keys)?;
    let keys = keys.as_slice();
    detach_guarded(py, || core::set_id(keys))
}

/// The 64-bit finaliser every sketch applies to keys first.
#[pyfunction]
fn mix64(key: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(core::mix64(scalar_key(key)?))
}

/// |A ∩ B| = J(|A| + |B|)/(1 + J), clamped to [0, min(|A|, |B|)]; the core rejects a Jaccard
/// outside [0, 1] and a bad size.
#[pyfunction]
fn intersection_from_jaccard(jaccard: f64, size_a: f64, size_b: f64) -> PyResult<f64> {
    core::intersection_from_jaccard(jaccard, size_a, size_b).map_err(sketch_err)
}

/// `fogsearch._core.sketch`; `SketchError` is also on `fogsearch._core`, beside every other
/// exception class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SketchError", m.py().get_type::<SketchError>())?;
    crate::submodule::add(m, "sketch", |m| {
        m.add("SketchError", m.py().get_type::<SketchError>())?;
        m.add_class::<PyCountSketch>()?;
        m.add_class::<PyTopK>()?;
        m.add_class::<PyMinHash>()?;
        m.add_function(wrap_pyfunction!(set_id, m)?)?;
        m.add_function(wrap_pyfunction!(mix64, m)?)?;
        m.add_function(wrap_pyfunction!(intersection_from_jaccard, m)?)?;
        Ok(())
    })
}
