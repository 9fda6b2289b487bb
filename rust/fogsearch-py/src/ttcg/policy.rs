//! Policies across the boundary: the core's built-in policies, or a Python callable asked under
//! the GIL (built once per call, its answers cached per information state).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use fogsearch_core::ttcg::{
    cards_of, Action, BiasPolicy, BuiltinPolicy, GreedPolicy, IecWeight, InfoStateView, Policy,
    QLearning, SoftmaxPolicy, TabularPolicy,
};

use super::to_py_err;
use crate::pickle;

/// Answers of a Python policy per (information-state key, legal actions).
type PolicyCache = Mutex<HashMap<(u64, Vec<Action>), Vec<f64>>>;

/// A Python callable as a policy: `policy(player, info, legal_actions) -> probabilities`, where
/// `info` is a dict (num_tricks, dealer, trump_card (None without one), dealt_hand, current_hand,
/// public_actions). Answers are cached per information state. The first error is kept, NaN is
/// returned to the core, and the error is raised once the call is back in Python.
pub(crate) struct CallablePolicy {
    callable: Py<PyAny>,
    cache: PolicyCache,
    error: Mutex<Option<PyErr>>,
}

impl CallablePolicy {
    fn ask(&self, info: &InfoStateView<'_>) -> PyResult<Vec<f64>> {
        Python::attach(|py| {
            let d = PyDict::new(py);
            d.set_item("num_tricks", info.table.num_tricks)?;
            d.set_item("dealer", info.table.dealer)?;
            d.set_item("trump_card", info.table.trump_card)?;
            d.set_item("dealt_hand", cards_of(info.dealt_hand).collect::<Vec<_>>())?;
            d.set_item(
                "current_hand",
                cards_of(info.current_hand).collect::<Vec<_>>(),
            )?;
            d.set_item("public_actions", info.public_actions.to_vec())?;
            let legal = PyList::new(py, info.legal_actions)?;
            let out = self.callable.bind(py).call1((info.player, d, legal))?;
            let probs: Vec<f64> = out.extract().map_err(|_| {
                PyTypeError::new_err(
                    "a policy callable must return a sequence of floats, one per legal action",
                )
            })?;
            let sum: f64 = probs.iter().sum();
            if probs.len() != info.legal_actions.len()
                || probs.iter().any(|&x| !(0.0..=1.0).contains(&x))
                || (sum - 1.0).abs() > 1e-6
            {
                return Err(PyValueError::new_err(format!(
                    "the policy returned {probs:?} for legal actions {:?}: need one probability per \
                     legal action, each in [0, 1], summing to 1",
                    info.legal_actions
                )));
            }
            Ok(probs)
        })
    }
}

impl Policy for CallablePolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        let key = (info.key(), info.legal_actions.to_vec());
        if let Some(p) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return p[index];
        }
        if self
            .error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
        {
            return f64::NAN;
        }
        match self.ask(info) {
            Ok(p) => {
                let x = p[index];
                self.cache
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(key, p);
                x
            }
            Err(e) => {
                self.error
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                f64::NAN
            }
        }
    }
}

/// The policy of a call: a built-in one (reach computed in Rust, no GIL) or a Python callable.
#[derive(Clone)]
pub(crate) enum AnyPolicy {
    Builtin(BuiltinPolicy),
    Gongzhu(GongzhuModel),
    Tabular(Arc<TabularPolicy>),
    Callable(Arc<CallablePolicy>),
}

/// Gongzhu's models of play, scored by Mr. Greed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GongzhuModel {
    Greed(GreedPolicy),
    Iec(IecWeight),
}

impl Policy for AnyPolicy {
    fn action_probability(&self, info: &InfoStateView<'_>, index: usize) -> f64 {
        match self {
            AnyPolicy::Builtin(p) => p.action_probability(info, index),
            AnyPolicy::Gongzhu(GongzhuModel::Greed(p)) => p.action_probability(info, index),
            AnyPolicy::Gongzhu(GongzhuModel::Iec(p)) => p.action_probability(info, index),
            AnyPolicy::Tabular(p) => p.action_probability(info, index),
            AnyPolicy::Callable(p) => p.action_probability(info, index),
        }
    }
}

impl AnyPolicy {
    /// `policy` as given to a ttcg function: None (uniform), a `BuiltinPolicy`, an object whose
    /// `_builtin` is one (the `fogsearch.ttcg` policy classes), or any callable.
    pub(crate) fn extract(py: Python<'_>, policy: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let Some(p) = policy.filter(|p| !p.is_none()) else {
            return Ok(AnyPolicy::Builtin(BuiltinPolicy::Uniform));
        };
        if let Ok(b) = p.cast::<PyBuiltinPolicy>() {
            return Ok(AnyPolicy::Builtin(b.get().inner));
        }
        if let Ok(g) = p.cast::<PyGongzhuModel>() {
            return Ok(AnyPolicy::Gongzhu(g.get().inner));
        }
        if let Ok(t) = p.cast::<PyTabularPolicy>() {
            return Ok(AnyPolicy::Tabular(t.get().inner.clone()));
        }
        if let Ok(inner) = p.getattr("_builtin") {
            if let Ok(b) = inner.cast::<PyBuiltinPolicy>() {
                return Ok(AnyPolicy::Builtin(b.get().inner));
            }
        }
        if p.is_callable() {
            return Ok(AnyPolicy::Callable(Arc::new(CallablePolicy {
                callable: p.clone().unbind().clone_ref(py),
                cache: Mutex::new(HashMap::new()),
                error: Mutex::new(None),
            })));
        }
        Err(PyTypeError::new_err(
            "policy must be None (uniform), a fogsearch.ttcg policy, or a callable \
             (player, info, legal_actions) -> probabilities",
        ))
    }

    /// The callable's first error, if it raised during the call (it takes precedence over what
    /// the core made of the NaN it got).
    pub(crate) fn take_error(&self) -> PyResult<()> {
        if let AnyPolicy::Callable(p) = self {
            if let Some(e) = p.error.lock().unwrap_or_else(|e| e.into_inner()).take() {
                return Err(e);
            }
        }
        Ok(())
    }
}

/// Built-in policy specification, computed in Rust: `uniform()`, `bias(seed, bias)` or
/// `softmax(seed, beta)`.
#[pyclass(module = "fogsearch._core.ttcg", name = "BuiltinPolicy", frozen)]
#[derive(Clone)]
pub struct PyBuiltinPolicy {
    pub(crate) inner: BuiltinPolicy,
}

#[pymethods]
impl PyBuiltinPolicy {
    #[staticmethod]
    fn uniform() -> Self {
        PyBuiltinPolicy {
            inner: BuiltinPolicy::Uniform,
        }
    }

    #[staticmethod]
    fn bias(seed: u64, bias: f64) -> PyResult<Self> {
        Ok(PyBuiltinPolicy {
            inner: BuiltinPolicy::Bias(BiasPolicy::new(seed, bias).map_err(to_py_err)?),
        })
    }

    #[staticmethod]
    fn softmax(seed: u64, beta: f64) -> PyResult<Self> {
        Ok(PyBuiltinPolicy {
            inner: BuiltinPolicy::Softmax(SoftmaxPolicy::new(seed, beta).map_err(to_py_err)?),
        })
    }

    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.to_bytes())
    }

    #[staticmethod]
    fn from_bytes(data: &[u8]) -> PyResult<Self> {
        Ok(PyBuiltinPolicy {
            inner: BuiltinPolicy::from_bytes(data).map_err(to_py_err)?,
        })
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        pickle::reduce::<Self>(py, &self.inner.to_bytes())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyBuiltinPolicy>()
            .is_ok_and(|o| o.get().inner.to_bytes() == self.inner.to_bytes())
    }

    fn __repr__(&self) -> String {
        match self.inner {
            BuiltinPolicy::Uniform => "UniformPolicy()".into(),
            BuiltinPolicy::Bias(b) => format!("BiasPolicy(seed={}, bias={})", b.seed, b.bias),
            BuiltinPolicy::Softmax(s) => format!("SoftmaxPolicy(seed={}, beta={})", s.seed, s.beta),
        }
    }
}

/// Gongzhu's models of play from Mr. Greed's scores: `GongzhuModel.greed(beta)` is the softmax
/// policy π(a | I) ∝ exp(β q_a); `GongzhuModel.iec(beta)` is IEC's unnormalised correction
/// factor γ = exp(−β (q_max − q_a)) on the important slices, so that the "reach" of a deal under
/// it is IEC's score. Usable as the `policy` of a Gongzhu range (the exact distributions the
/// samplers are checked against).
#[pyclass(module = "fogsearch._core.ttcg", name = "GongzhuModel", frozen)]
pub struct PyGongzhuModel {
    inner: GongzhuModel,
}

#[pymethods]
impl PyGongzhuModel {
    #[staticmethod]
    fn greed(beta: f64) -> PyResult<Self> {
        Ok(PyGongzhuModel {
            inner: GongzhuModel::Greed(GreedPolicy::new(beta).map_err(to_py_err)?),
        })
    }

    #[staticmethod]
    fn iec(beta: f64) -> PyResult<Self> {
        Ok(PyGongzhuModel {
            inner: GongzhuModel::Iec(IecWeight::new(beta).map_err(to_py_err)?),
        })
    }

    fn __repr__(&self) -> String {
        match self.inner {
            GongzhuModel::Greed(p) => format!("GongzhuModel.greed({})", p.beta),
            GongzhuModel::Iec(p) => format!("GongzhuModel.iec({})", p.beta),
        }
    }
}

/// A joint policy as a table of action probabilities per information state, learnt by
/// `TabularPolicy.q_learning(params, ...)`: independent Q-learning by self-play on oh_hell with
/// `params` (their `num_tricks_fixed` must be set), ε-greedy in the learnt values.
#[pyclass(module = "fogsearch._core.ttcg", name = "TabularPolicy", frozen)]
pub struct PyTabularPolicy {
    inner: Arc<TabularPolicy>,
}

#[pymethods]
impl PyTabularPolicy {
    #[staticmethod]
    #[pyo3(signature = (params, episodes=100_000, epsilon=0.1, alpha=0.05, seed=0))]
    fn q_learning(
        py: Python<'_>,
        params: &Bound<'_, PyDict>,
        episodes: u64,
        epsilon: f64,
        alpha: f64,
        seed: u64,
    ) -> PyResult<Self> {
        let params = super::params_from_dict(params)?;
        let settings = QLearning {
            episodes,
            epsilon,
            alpha,
            seed,
        };
        let policy = super::run(py, Some(1), |stop| {
            TabularPolicy::q_learnt_on_oh_hell(&params, settings, stop)
        })?;
        Ok(PyTabularPolicy {
            inner: Arc::new(policy),
        })
    }

    /// Information states in the table.
    fn __len__(&self) -> usize {
        self.inner.table.len()
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTabularPolicy>()?;
    m.add_class::<PyBuiltinPolicy>()?;
    m.add_class::<PyGongzhuModel>()
}
