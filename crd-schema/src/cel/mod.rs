//! CEL validation rules (`x-kubernetes-validations`) of structural schemas,
//! as the API server compiles and runs them
//! (`k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel`).
//!
//! Entry points:
//! - [`CelValidator::new`] compiles every rule of a schema tree once;
//!   [`CelValidator::validate`] runs them on an object (and its old version,
//!   for transition rules) within a runtime cost budget
//!   ([`RUNTIME_COST_BUDGET`] per request);
//! - [`with_cost_budget`] sets the budget the default-value check of the CRD
//!   validation draws from while running rules on `default`s;
//! - [`estimate_rule_costs`] and [`decl_size`]: the static cost estimates
//!   of rules and the sizes they come from (module `cost`);
//! - the CRD schema checks (`crate::validation`) report compilation errors
//!   and `oldSelf` misuse through this module.
//!
//! Rules are parsed by the `cel` crate and evaluated by an interpreter of
//! this module that reproduces cel-go's semantics and runtime cost model
//! (errors as values, heterogeneous equality, the cost of each step), so
//! budgets run out exactly where the API server's do; the Kubernetes
//! extension libraries (strings, lists, sets, regex, URLs, IPs, quantities,
//! semver, format, math, base64) come from `kube-cel`. Values are views of
//! the JSON data typed by the schema, as Kubernetes' lazy adapters are.
//!
//! Error policy: rule failures, runtime errors, rules that do not compile
//! and budget exhaustion are [`FieldError`](crate::field::FieldError)s with
//! Kubernetes' texts. Nothing here panics on hostile rules or values: the
//! cost limits bound every evaluation, and the parser's recursion limit
//! bounds expression depth.

mod ast;
mod bridge;
mod check;
mod compile;
mod cost;
mod escape;
mod estimate;
mod eval;
mod functions;
mod library_cost;
mod macros;
mod schema;
mod time;
mod validator;
mod value;

use std::cell::Cell;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::field::{ErrorList, Path};
use crate::structural::Structural;

pub(crate) use compile::CompiledRule;
pub(crate) use cost::max_cardinality;
pub use cost::{DeclSize, RuleCost, decl_size, estimate_rule_costs};

/// The API server's per-request runtime cost budget
/// (`celconfig.RuntimeCELCostBudget`).
pub const RUNTIME_COST_BUDGET: i64 = 10_000_000;

/// Every `x-kubernetes-validations` rule (and `messageExpression`) of a
/// structural schema, compiled once.
///
/// ```
/// use crd_schema::cel::{CelValidator, RUNTIME_COST_BUDGET};
/// use crd_schema::field::Path;
/// use crd_schema::structural::Structural;
/// use serde_json::json;
///
/// let schema = Structural::from_json(&json!({"type": "object", "properties": {"spec": {"type": "object",
///     "properties": {"replicas": {"type": "integer"}},
///     "x-kubernetes-validations": [{"rule": "self.replicas >= 0", "message": "must not be negative"}]}}}))
/// .unwrap();
/// let validator = CelValidator::new(&schema);
/// let mut budget = RUNTIME_COST_BUDGET;
/// let errors = validator.validate(&Path::root(), &json!({"spec": {"replicas": -1}}), None, &mut budget);
/// assert_eq!(errors[0].to_string(), "spec: Invalid value: must not be negative");
/// assert!(budget < RUNTIME_COST_BUDGET);
/// ```
#[derive(Clone)]
pub struct CelValidator {
    inner: Option<Arc<Inner>>,
}

/// The schema (owned, so that values can be typed by it) and the compiled
/// rules.
struct Inner {
    schema: Structural,
    resource_root: bool,
    rules: validator::Rules,
}

impl CelValidator {
    /// Compiles the rules of `schema` (the whole tree), the root of a custom
    /// resource: its rules always see `apiVersion`, `kind`,
    /// `metadata.name` and `metadata.generateName`. Never panics. Rules
    /// that do not compile make [`CelValidator::validate`] report an error
    /// at their node (`rule compile error: ...`), as the server does for a
    /// stored CRD whose rule does not compile; they are never silently
    /// passed.
    pub fn new(schema: &Structural) -> Self {
        Self::with_root(schema, true)
    }

    /// As [`CelValidator::new`], for a schema that is the root of a
    /// resource only when `resource_root` (or when it is an embedded
    /// resource).
    pub(crate) fn with_root(schema: &Structural, resource_root: bool) -> Self {
        let resource_root = resource_root || schema.extensions.x_embedded_resource;
        let rules = validator::Rules::compile(schema::Node::new(schema, resource_root));
        let inner = rules.map(|rules| Arc::new(Inner { schema: schema.clone(), resource_root, rules }));
        Self { inner }
    }

    /// True when the schema has no rules at all (callers skip the walk;
    /// [`CelValidator::validate`] then returns at once).
    pub fn is_empty(&self) -> bool {
        self.inner.is_none()
    }

    /// Runs the rules on `value` under `path` (the root path is
    /// [`Path::root`]), with `old` the previous object for transition rules
    /// (`None` on create). Old and new values are correlated as the server
    /// does: properties by name, `additionalProperties` values by key
    /// (except below an `x-kubernetes-map-type` other than `granular` or
    /// `atomic`), list items only in `x-kubernetes-list-type: map` lists, by
    /// their keys; nothing below an uncorrelatable list. `budget` is the
    /// remaining runtime cost, decremented by each rule's cost; when it runs
    /// out, Kubernetes' error (`... validation failed due to running out of
    /// cost budget, no further validation rules will be run`) is reported
    /// once, no further rule runs, and `budget` is left negative.
    ///
    /// Errors of rules that evaluate to false are not ratcheted: Kubernetes
    /// turns them into warnings on updates that leave the value unchanged,
    /// which is up to the caller.
    pub fn validate(&self, path: &Path, value: &Value, old: Option<&Value>, budget: &mut i64) -> ErrorList {
        let Some(inner) = &self.inner else { return ErrorList::new() };
        let mut run = validator::Run { budget, errors: ErrorList::new() };
        let node = schema::Node::new(&inner.schema, inner.resource_root);
        run.node(node, &inner.rules, path, value, old);
        run.errors
    }
}

impl fmt::Debug for CelValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.inner.as_ref().map_or(0, |i| i.rules.count());
        f.debug_struct("CelValidator").field("rules", &rules).finish()
    }
}

thread_local! {
    /// The budget of the current [`with_cost_budget`] scope.
    static SCOPED_BUDGET: Cell<Option<i64>> = const { Cell::new(None) };
}

/// Runs `f` with `budget` as the runtime cost budget that the CEL step of
/// the default-value check
/// ([`validate_defaults`](crate::validation::validate_defaults)) shares
/// across all defaults, as Kubernetes shares one budget per schema: once it
/// runs out, the exhaustion is reported once and no further rule runs on a
/// default. Outside such a scope every default gets the full
/// [`RUNTIME_COST_BUDGET`].
pub fn with_cost_budget<R>(budget: i64, f: impl FnOnce() -> R) -> R {
    let previous = SCOPED_BUDGET.with(|b| b.replace(Some(budget)));
    let result = f();
    SCOPED_BUDGET.with(|b| b.set(previous));
    result
}

/// Runs `run` with the budget of the current [`with_cost_budget`] scope
/// (or a full one) and keeps what it leaves.
pub(crate) fn with_scoped_budget(run: impl FnOnce(&mut i64) -> ErrorList) -> ErrorList {
    let mut budget = SCOPED_BUDGET.with(Cell::get).unwrap_or(RUNTIME_COST_BUDGET);
    if budget < 0 {
        // Exhausted earlier in this scope, and already reported.
        return ErrorList::new();
    }
    let errors = run(&mut budget);
    SCOPED_BUDGET.with(|b| {
        if b.get().is_some() {
            b.set(Some(budget));
        }
    });
    errors
}

/// The compiled rules of one schema node, for the CRD schema checks;
/// `None` when the node has no CEL type (Kubernetes then reports that it
/// cannot construct type information).
pub(crate) fn compile_node(schema: &Structural, resource_root: bool) -> Option<Vec<CompiledRule>> {
    let node = schema::Node::new(schema, resource_root || schema.extensions.x_embedded_resource);
    schema::decl(node)?;
    let rules = schema.validation_extensions.x_validations.as_deref().unwrap_or_default();
    Some(compile::compile_rules(node, rules))
}

#[cfg(test)]
mod tests;
