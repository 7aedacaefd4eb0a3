//! Decodes a Widget manifest with the generated types and prints what the
//! API server would store.

use example_widgets::v1::Widget;

const MANIFEST: &str = r#"
apiVersion: example.com/v1
kind: Widget
metadata:
  name: demo
  namespace: default
spec:
  colour: red
  shape: round        # not in the schema: dropped
  parts:
    - name: wheel
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let value: serde_json::Value = crd_schema::yaml::parse_documents("manifest", MANIFEST)?
        .into_iter()
        .next()
        .map(|d| d.value)
        .ok_or("no document")?;
    let widget: Widget = serde_json::from_value(value)?;
    println!("{}", serde_json::to_string_pretty(&widget)?);
    Ok(())
}
