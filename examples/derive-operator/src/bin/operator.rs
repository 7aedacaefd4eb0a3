//! Runs the Database controller against the cluster of the current
//! kubeconfig (or the pod's service account) until it is stopped.

#[tokio::main]
async fn main() -> Result<(), kube::Error> {
    let client = kube::Client::try_default().await?;
    example_derive_operator::controller::run(client).await;
    Ok(())
}
