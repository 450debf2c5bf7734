//! The operator's mistakes with secrets: a key written where its reference belongs (a Worker's
//! credential, the vault's token), a password in an endpoint's URL. Each is refused naming the setting
//! and the fix, and the canary secret never reaches stderr or the logs; a `file:` credential others
//! may read is warned about by name.

use std::process::Command;

const CANARY: &str = "sk-canary-7f3a9c";

fn serve_with(config: &str, env: &[(&str, &str)]) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("formgen.toml");
    std::fs::write(&path, config).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_formgen"));
    cmd.args(["serve", "--config"]).arg(&path).env("RUST_LOG", "trace").env_remove("FORMGEN_CONFIG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

const WORKER: &str = "[[workers]]\nname = \"claude\"\nprovider = \"messages\"\nmodel = \"m\"\n";

#[test]
fn a_clear_key_as_a_credential_is_refused_without_quoting_it() {
    for config in [
        format!("{WORKER}endpoint = \"https://api.example.com\"\ncredential = \"{CANARY}\"\n"),
        format!("{WORKER}endpoint = \"https://api.example.com\"\ncredential = \"env:{CANARY}\"\n"),
        format!("{WORKER}endpoint = \"https://api.example.com\"\ncredential = \"vault:{CANARY}\"\n"),
        format!(
            "[vault]\naddr = \"http://127.0.0.1:8200\"\ntoken = \"{CANARY}\"\n{WORKER}endpoint = \"https://api.example.com\"\n"
        ),
    ] {
        let (code, text) = serve_with(&config, &[]);
        assert_eq!(code, 2, "{text}");
        assert!(!text.contains(CANARY), "the key is quoted back:\n{text}");
        assert!(
            text.contains(".credential: ") || text.contains("vault.token: "),
            "names the setting: {text}"
        );
        assert!(text.contains("never the key itself"), "says the fix: {text}");
    }
    // from the environment too, naming the variable
    let (code, text) = serve_with(
        &format!("{WORKER}endpoint = \"https://api.example.com\"\n"),
        &[("FORMGEN_WORKER_CLAUDE_CREDENTIAL", CANARY), ("FORMGEN_VAULT_TOKEN", CANARY)],
    );
    assert_eq!(code, 2, "{text}");
    assert!(!text.contains(CANARY), "{text}");
    assert!(text.contains("FORMGEN_WORKER_CLAUDE_CREDENTIAL (workers[0].credential)"), "{text}");
    assert!(text.contains("FORMGEN_VAULT_TOKEN (vault.token)"), "{text}");
}

#[test]
fn a_key_of_the_wrong_type_is_not_quoted_either() {
    let (code, text) =
        serve_with(&format!("{WORKER}endpoint = \"https://x.example\"\ncredential = 738291\n"), &[]);
    assert_eq!(code, 2, "{text}");
    assert!(!text.contains("738291"), "{text}");
    assert!(text.contains("workers[0].credential (line"), "{text}");
}

#[test]
fn a_password_in_an_endpoint_is_refused_without_quoting_it() {
    for endpoint in [
        format!("https://user:{CANARY}@api.example.com/v1"),
        format!("https://{CANARY}@api.example.com"),
        format!("ftp://user:{CANARY}@api.example.com"),
        format!("not a url:{CANARY}@"),
    ] {
        let (code, text) = serve_with(&format!("{WORKER}endpoint = \"{endpoint}\"\n"), &[]);
        assert_eq!(code, 2, "{endpoint}: {text}");
        assert!(!text.contains(CANARY), "{text}");
        assert!(text.contains("workers[0].endpoint: "), "{text}");
    }
    let (code, text) = serve_with(
        &format!(
            "{WORKER}endpoint = \"https://api.example.com\"\n[vault]\naddr = \"https://root:{CANARY}@vault.example\"\n"
        ),
        &[],
    );
    assert_eq!(code, 2, "{text}");
    assert!(!text.contains(CANARY), "{text}");
    assert!(text.contains("vault.addr: the URL holds a user name or password"), "{text}");
    let (code, text) = serve_with(
        &format!("{WORKER}endpoint = \"https://api.example.com\"\n"),
        &[("FORMGEN_WORKER_CLAUDE_ENDPOINT", &format!("https://u:{CANARY}@api.example.com"))],
    );
    assert_eq!(code, 2, "{text}");
    assert!(!text.contains(CANARY), "{text}");
    assert!(text.contains("FORMGEN_WORKER_CLAUDE_ENDPOINT (workers[0].endpoint)"), "{text}");
}

#[cfg(unix)]
#[test]
fn a_credential_file_others_can_read_is_named_with_the_fix() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("key");
    std::fs::write(&key, CANARY).unwrap();
    let text = format!(
        "{WORKER}endpoint = \"https://api.example.com\"\ncredential = \"file:key\"\n[vault]\naddr = \"http://127.0.0.1:8200\"\ntoken = \"file:key\"\n"
    );
    let load =
        || formgen::config::Config::parse(&text, "t", dir.path(), false, &|_| None).unwrap().warnings();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let warnings = load();
    let shown = warnings.join("\n");
    assert!(shown.contains(&format!("workers[0].credential: {}", key.display())), "{shown}");
    assert!(shown.contains("vault.token: "), "{shown}");
    assert!(shown.contains(&format!("chmod 600 {}", key.display())), "{shown}");
    assert!(!shown.contains(CANARY), "{shown}");
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    assert!(load().iter().all(|w| !w.contains("chmod")), "{:?}", load());
}
