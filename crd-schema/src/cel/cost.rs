//! The estimated costs of rules and the sizes they are estimated from, as
//! CRD validation uses them (`CompilationResult.MaxCost` and
//! `MaxCardinality` of `apiextensions-apiserver/pkg/apiserver/schema/cel`,
//! `DeclType.MaxElements` and `MinSerializedSize` of
//! `k8s.io/apiserver/pkg/cel`).
//!
//! Entry points:
//! - [`estimate_rule_costs`]: per rule of a node, the estimated cost of one
//!   evaluation and how often the node can occur in one request when
//!   nothing bounds it;
//! - [`decl_size`]: the sizes of the CEL type of a node, or of a place
//!   inside it.
//!
//! CRD validation multiplies a rule's cost by how often its node can occur
//! ([`crate::validation::max_cardinality`]) and adds everything up
//! ([`crate::validation::TotalCost`]). Nothing here fails: a rule that
//! does not compile has the cost 0 and its error.
//!
//! ```
//! use crd_schema::cel::{decl_size, estimate_rule_costs};
//! use crd_schema::structural::Structural;
//! use serde_json::json;
//!
//! let schema = Structural::from_json(&json!({"type": "array", "maxItems": 10, "items": {"type": "number"},
//!     "x-kubernetes-validations": [{"rule": "self.all(x, true)"}]}))
//! .unwrap();
//! let costs = estimate_rule_costs(&schema, false).unwrap();
//! assert_eq!(costs[0].max_cost, 32);
//! assert_eq!(decl_size(&schema, false, &["@items"]).unwrap().min_serialized_size, 1);
//! ```

use super::schema::{self, Decl, Node};
use crate::structural::Structural;

/// The estimates of one rule (`CompilationResult`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCost {
    /// The estimated worst-case cost of one evaluation of the rule
    /// (`MaxCost`); 0 for an empty rule or one that does not compile.
    pub max_cost: u64,
    /// The same for the rule's `messageExpression`; 0 without one.
    pub message_expression_max_cost: u64,
    /// How often data at the node can occur in one request when no
    /// ancestor bounds it (`MaxCardinality`): the request size over the
    /// smallest serialization of the data plus a comma.
    pub max_cardinality: u64,
    /// Why the rule or its `messageExpression` did not compile, as
    /// Kubernetes words it.
    pub error: Option<String>,
}

/// The estimates of every rule of `schema`'s own `x-kubernetes-validations`
/// (not those of its descendants), in order; `resource_root` says whether
/// the node is the root of a custom resource (an embedded resource always
/// is). `None` when the node has no CEL type, so that its rules cannot
/// compile.
pub fn estimate_rule_costs(schema: &Structural, resource_root: bool) -> Option<Vec<RuleCost>> {
    let compiled = super::compile_node(schema, resource_root)?;
    let max_cardinality = max_cardinality(schema, resource_root);
    let costs = compiled
        .into_iter()
        .map(|c| RuleCost {
            max_cost: c.max_cost,
            message_expression_max_cost: c.message_expression_max_cost,
            max_cardinality,
            error: c.error.or(c.message_expression_error),
        })
        .collect();
    Some(costs)
}

/// The sizes of a CEL type (`DeclType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclSize {
    /// The largest length in bytes of a string or bytes value, or the
    /// largest number of list items or map entries; 0 for objects and
    /// scalars.
    pub max_elements: u64,
    /// The smallest JSON serialization of a value.
    pub min_serialized_size: u64,
    /// The `maxLength` of the schema the type was made from, after the
    /// type and object meta of a resource root were put in
    /// (`WithTypeAndObjectMeta`).
    pub max_length: Option<i64>,
}

/// The sizes of the CEL type of `schema` (`SchemaDeclType(schema,
/// resource_root)`), or of the place `path` leads to inside it: a field
/// name selects a field of an object (by its CEL name, `a__dot__b` for
/// `a.b`), `@items` and `@values` the element of a list or the value of a
/// map, `@keys` the key of a map. `None` when the node has no CEL type or
/// the path leads nowhere.
pub fn decl_size(schema: &Structural, resource_root: bool, path: &[&str]) -> Option<DeclSize> {
    let root = Node::new(schema, resource_root || schema.extensions.x_embedded_resource);
    schema::decl(root)?;
    match schema::walk(root, path)? {
        Decl::Node(node) => Some(DeclSize {
            max_elements: schema::max_elements(node)?,
            min_serialized_size: schema::min_serialized_size(node),
            max_length: node.max_length(),
        }),
        // Map keys are plain strings, estimated as empty.
        Decl::MapKey => Some(DeclSize { max_elements: 0, min_serialized_size: 2, max_length: None }),
    }
}

/// `MaxCardinality` of the rules of `schema`.
pub(crate) fn max_cardinality(schema: &Structural, resource_root: bool) -> u64 {
    schema::max_cardinality(Node::new(schema, resource_root || schema.extensions.x_embedded_resource))
}
