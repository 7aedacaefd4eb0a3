//! The one skip list of the conformance runner. Every entry says why the
//! case cannot pass yet; `*` stands for every case of a file.

/// `(file, case name or "*", reason)`.
pub const REASONS: &[(&str, &str, &str)] = &[
    // Whole files whose algorithms land with later issues.
    ("default-validation.json", "*", "default validation lands with the decode pipeline (issue 3)"),
    ("listtype.json", "*", "list-type validation lands with value validation (issue 6)"),
    ("objectmeta.json", "*", "ObjectMeta coercion lands with the decode pipeline (issue 3)"),
    ("openapi.json", "*", "publishing lands with issue 7"),
    ("value-validation.json", "*", "value validation lands with issue 6"),
    // crd-schema-validation.json: errors that only CEL compilation (compile errors, cost estimates,
    // oldSelf analysis) or the default-value check produce; both land with later work.
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/invalid rule in x-kubernetes-validations",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/invalid x-kubernetes-validations for escaping (keywords are invalid field names before v1.30)",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/valid x-kubernetes-validations for escaping",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/invalid x-kubernetes-validations for unknown property",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of list of type atomic",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of list defaulting to type atomic",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of list of type set",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of map of unrecognized type",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid double-nested rule with no limit set",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid double-nested rule with one limit set",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid validation rules where cost total exceeds total limit",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/do not skip when OpenAPIv3 schema is an invalid structural schema in a separate part of the schema tree",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/do not skip CEL expression validation when OpenAPIv3 schema is an invalid structural schema at level above",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated for escaped property name",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under array items",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under array items, parent has rule",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under additionalProperties",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under additionalProperties, parent has rule",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under unescaped property name",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under unescaped property name, parent has rule",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under escaped property name",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under escaped property name, parent has rule",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under unescapable property name",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule validated under unescapable property name, parent has rule",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule invalidated by messageExpression syntax error",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule invalidated by messageExpression not returning a string",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule invalidated by messageExpression exceeding per-expression estimated cost limit",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/x-kubernetes-validations rule invalidated by messageExpression exceeding per-CRD estimated cost limit",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of list of type atomic when optionalOldSelf is set",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of list defaulting to type atomic when optionalOldSelf is set",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of list of type set when optionalOldSelf is set",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid transition rule on element of map of unrecognized type when optionalOldSelf is set",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid setting optionalOldSelf to true if oldSelf is not used",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/forbid setting optionalOldSelf to false if oldSelf is not used",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionUpdate/suppress per-expression cost limit in pre-existing versions",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionUpdate/suppress per-expression cost limit in new object during top-level schema to Versions extraction",
        "needs CEL compilation",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinitionValidation/invalid default with x-kubernetes-validations",
        "needs default validation (issue 3)",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinition/invalid defaults with enabled feature gate, structural schema",
        "needs default validation (issue 3)",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinition/v1.15 era tests for metadata defaults",
        "needs default validation (issue 3)",
    ),
    (
        "crd-schema-validation.json",
        "TestValidateCustomResourceDefinition/embedded metadata defaults",
        "needs default validation (issue 3)",
    ),
    ("crd-schema-validation.json", "derived/default of wrong type", "needs default validation (issue 3)"),
    ("crd-schema-validation.json", "derived/default violating maximum", "needs default validation (issue 3)"),
    ("crd-schema-validation.json", "derived/default object with unknown field", "needs default validation (issue 3)"),
    (
        "crd-schema-validation.json",
        "derived/default object violating nested pattern",
        "needs default validation (issue 3)",
    ),
    ("crd-schema-validation.json", "derived/default in array items", "needs default validation (issue 3)"),
];

/// The index of the skip entry that covers `name` in `file`, if any.
pub fn lookup(file: &str, name: &str) -> Option<usize> {
    REASONS.iter().position(|(f, n, _)| *f == file && (*n == "*" || *n == name))
}
