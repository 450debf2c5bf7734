//! Credentials from a real vault: OpenBao's dev server (`../shared/tools/openbao`), started by
//! `.ci/conformance`, which exports `FORMGEN_TEST_VAULT_ADDR`, `FORMGEN_TEST_VAULT_TOKEN`,
//! `FORMGEN_TEST_OPENBAO_DIR` and `FORMGEN_TEST_OPENBAO_PORT`.

use std::time::Duration;

use formgen::credentials::{CredentialRef, Credentials, VaultTokenRef};
use formgen::vault::{Vault, VaultError};
use secrecy::ExposeSecret;

pub fn env(name: &str) -> String {
    crate::common::shared();
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run the conformance tier through `bash .ci/conformance`")
    })
}

pub async fn write_secret(path: &str, data: serde_json::Value) {
    let addr = env("FORMGEN_TEST_VAULT_ADDR");
    let response = reqwest::Client::new()
        .post(format!("{addr}/v1/secret/data/{path}"))
        .header("X-Vault-Token", env("FORMGEN_TEST_VAULT_TOKEN"))
        .json(&serde_json::json!({"data": data}))
        .send()
        .await
        .expect("OpenBao answers");
    assert!(response.status().is_success(), "writing the secret: HTTP {}", response.status());
}

fn vault() -> (Vault, VaultTokenRef) {
    // SAFETY: the conformance tests run with one thread; this variable is only read by the resolver.
    unsafe { std::env::set_var("FORMGEN_TEST_VAULT_TOKEN_REF", env("FORMGEN_TEST_VAULT_TOKEN")) };
    (
        Vault::new(env("FORMGEN_TEST_VAULT_ADDR").parse().unwrap(), None),
        VaultTokenRef::Env("FORMGEN_TEST_VAULT_TOKEN_REF".into()),
    )
}

#[tokio::test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
async fn a_real_vault_resolves_rotates_and_fails_clearly() {
    write_secret("formgen-conformance", serde_json::json!({"api_key": "key-one", "other": "x"})).await;
    let credentials = Credentials::new(Some(vault()), Duration::from_secs(1));
    let reference = CredentialRef::parse("vault:secret/formgen-conformance#api_key").unwrap();
    let value = credentials.resolve(&reference).await.unwrap().unwrap();
    assert_eq!(value.expose_secret(), "key-one");

    // rotation: the cached value until the cache expires, then the new one, without a restart
    write_secret("formgen-conformance", serde_json::json!({"api_key": "key-two"})).await;
    assert_eq!(credentials.resolve(&reference).await.unwrap().unwrap().expose_secret(), "key-one");
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    assert_eq!(credentials.resolve(&reference).await.unwrap().unwrap().expose_secret(), "key-two");

    // no such field, no such secret
    let e = credentials
        .resolve(&CredentialRef::parse("vault:secret/formgen-conformance#nope").unwrap())
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the credential vault:secret/formgen-conformance#nope could not be read from the vault: the secret has no text field \"nope\""
    );
    let e = credentials.resolve(&CredentialRef::parse("vault:secret/missing#x").unwrap()).await.unwrap_err();
    assert!(e.to_string().contains("no secret at that path"), "{e}");

    // a wrong token: 403
    // SAFETY: as above.
    unsafe { std::env::set_var("FORMGEN_TEST_WRONG_TOKEN", "not-the-token") };
    let wrong = (
        Vault::new(env("FORMGEN_TEST_VAULT_ADDR").parse().unwrap(), None),
        VaultTokenRef::Env("FORMGEN_TEST_WRONG_TOKEN".into()),
    );
    let e = Credentials::new(Some(wrong), Duration::ZERO).resolve(&reference).await.unwrap_err();
    assert!(
        matches!(&e, formgen::credentials::CredentialError::Vault { reason: VaultError::Denied(403), .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("refused formgen's token (HTTP 403)"), "{e}");

    // the server stopped: a clear error naming the reference, and back again afterwards
    let dir = env("FORMGEN_TEST_OPENBAO_DIR");
    let shared = crate::common::shared();
    let stop = std::process::Command::new("bash")
        .arg(shared.join("tools/openbao/stop.sh"))
        .arg(&dir)
        .status()
        .unwrap();
    assert!(stop.success());
    let fresh = Credentials::new(Some(vault()), Duration::ZERO);
    let e = fresh.resolve(&reference).await.unwrap_err();
    assert!(
        matches!(
            e,
            formgen::credentials::CredentialError::Vault { reason: VaultError::Unreachable { .. }, .. }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().starts_with("the credential vault:secret/formgen-conformance#api_key could not be read from the vault: the vault at http://127.0.0.1:"),
        "{e}"
    );
    let start = std::process::Command::new("bash")
        .arg(shared.join("tools/openbao/start.sh"))
        .args([&dir, &env("FORMGEN_TEST_OPENBAO_PORT"), &env("FORMGEN_TEST_VAULT_TOKEN")])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(start.success(), "OpenBao restarts for the tests after this one");
}
