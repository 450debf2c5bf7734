//! Fail closed on fields that ask for a secret, and say plainly when one asks for a national id.
//!
//! A rendered form is stored, shown in task lists, read by people and by agents, and written into
//! process variables that history keeps. No field type makes that safe for a password, so a field
//! (or a group or list whose path names one) whose type, key, path, label, description, placeholder or
//! date/time label asks for one is refused, and the author is told where a secret belongs instead (a
//! vault, referenced by name). A national identifier (SSN) is refused too, with a sentence about
//! personal data rather than vaults.
//!
//! Text is read as words (see [`crate::words::split`]): `passWord`, `Pass-Wort`, `pass_word` and
//! "pass word" are joined back (runs of up to three adjacent words are tried together), German
//! compounds and plurals are caught by distinctive stems inside a word (`Benutzerpasswort`,
//! `Passwörter`, `Zugangscode`), and text is folded first: Unicode compatibility forms to their
//! plain letters (NFKC: full-width, mathematical bold and script, ligatures), small capitals to
//! letters, `ß` to `ss` (case folding: `Paßwort`), invisible joiners dropped, letters written one by
//! one joined back (`p a s s w o r d`, `P-I-N`), then Cyrillic and Greek letters that look Latin
//! (`Pаssword` with a Cyrillic `а`) and digits or symbols written inside a word for letters
//! (`p@ssword`, `Pa55word`). The words are English, German, French, Spanish, Portuguese, Italian,
//! Dutch, Polish, Swedish, Norwegian, Danish, Finnish, Hungarian, Czech, Turkish, Russian, Arabic,
//! Hebrew, Chinese, Japanese and Korean ones, and Croatian, Serbian, Slovenian, Estonian, Lithuanian,
//! Romanian, Greek, Icelandic, Catalan, Basque, Welsh, Irish, Afrikaans, Swahili, Indonesian, Malay,
//! Vietnamese, Hindi and Thai ones; every text is read as written and again with its letters at their
//! base (combining marks dropped after NFD), so `Pássword` and `Parolă` read as `password` and
//! `parola`. A key whose last word is `pass` (`userPass`, `db_pass`) asks for a password unless a
//! ticket comes before it (`boardingPass`); "Pass" in a label is an exam passed or a ticket. A field is read where it shows text: its key, path,
//! label, description, placeholder, date and time labels, the labels of its options and its prefix
//! and suffix adorners. Precision the other way: "One-time payment", "Pincode" (a postal code),
//! "Token amount", "Secret Santa", "PWD (person with disability)", "Professional credentials" and
//! "Parola chiave" (a keyword) are ordinary fields.

use unicode_normalization::UnicodeNormalization;

use crate::words;

/// Whole words that name a secret.
const WORDS: &[&str] = &[
    "password",
    "passwords",
    "passwort",
    "passworte",
    "passwd",
    "pwd",
    "passphrase",
    "passcode",
    "kennwort",
    "contraseña",
    "contrasena",
    "senha",
    "wachtwoord",
    "hasło",
    "haslo",
    "secret",
    "secrets",
    "credential",
    "credentials",
    "zugangsdaten",
    "token",
    "tokens",
    "apikey",
    "apikeys",
    "privatekey",
    "otp",
    "totp",
    "hotp",
    "pin",
    "pins",
    "geheimzahl",
    "cvv",
    "cvc",
    "cvv2",
    "cvc2",
    "motdepasse",
    "accesskey",
    "secretkey",
    "clientsecret",
    "pswd",
    "pw",
    "ccv",
    "lösenord",
    "losenord",
    "passord",
    "adgangskode",
    "salasana",
    "jelszó",
    "jelszo",
    "heslo",
    "şifre",
    "sifre",
    "parola",
    "paroladordine",
    "chiavediaccesso",
    "codicedisicurezza",
    "códigodeseguridad",
    "codigodeseguridad",
    "codedesécurité",
    "codedesecurite",
    "seedphrase",
    "recoveryphrase",
    "mnemonicphrase",
    "סיסמה",
    "סיסמא",
    // read with accents dropped as well, so a word is listed bare once: Parolă is parola
    "lozinka",
    "lozinke",
    "lozinku",
    "geslo",
    "gesla",
    "kodeord",
    "kodeordet",
    "parool",
    "parooli",
    "salasona",
    "slaptazodis",
    "slaptazodzio",
    "wagwoord",
    "nenosiri",
    "katasandi",
    "katalaluan",
    "contrasenya",
    "contrasinal",
    "pasahitza",
    "cyfrinair",
    "pasfhocal",
    "lykilord",
    "lykilorð",
    "palavrapasse",
    "matkhau",
    "συνθηματικο",
    "mnemonic",
    "mnemonics",
    "puk",
    "puk2",
];

/// Stems that make any word containing them a secret: distinctive enough to find inside compounds
/// and inflections (`Benutzerpasswort`, `Passwörter`, `паролем`).
const STEMS: &[&str] = &[
    "password",
    "passwort",
    "passwört",
    "passwd",
    "kennwort",
    "kennwört",
    "passphrase",
    "passcode",
    "zugangscode",
    "zugangsdaten",
    "geheimzahl",
    "apischlüssel",
    "privatschlüssel",
    "geheimschlüssel",
    "wachtwoord",
    "contraseña",
    "motdepasse",
    "hasło",
    "hasła",
    "haseł",
    "sicherheitscode",
    "kartenprüfnummer",
    "kartenpruefnummer",
    "kartenprufnummer",
    "lösenord",
    "şifre",
    "jelszav",
    "salasanan",
    "סיסמ",
    "парол",
    "密码",
    "密碼",
    "口令",
    "パスワード",
    "暗証番号",
    "비밀번호",
    "slaptazod",
    "fjalekalim",
    "passwuert",
    "лозинк",
    "apiキー",
    "apiキ",
];

/// Words of scripts whose vowel signs and viramas split a word where [`words::split`] reads it
/// (Devanagari, Thai): looked for in the whole text.
const IN_TEXT: &[&str] = &["पासवर्ड", "रहस्यशब्द", "कूटशब्द", "รหัสผ่าน"];

/// Adjacent word pairs that name a secret.
const PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("api", "schlüssel"),
    ("clé", "api"),
    ("cle", "api"),
    ("clave", "api"),
    ("chiave", "api"),
    ("access", "key"),
    ("secret", "key"),
    ("private", "key"),
    ("privater", "schlüssel"),
    ("private", "schlüssel"),
    ("geheimer", "schlüssel"),
    ("clé", "privée"),
    ("signing", "key"),
    ("encryption", "key"),
    ("ssh", "key"),
    ("license", "key"),
    ("licence", "key"),
    ("product", "key"),
    ("client", "secret"),
    ("security", "code"),
    ("verification", "code"),
    ("auth", "code"),
    ("authorization", "code"),
    ("mfa", "code"),
    ("2fa", "code"),
    ("tan", "code"),
    ("card", "verification"),
    ("mot", "passe"),
    ("session", "id"),
    ("session", "cookie"),
    ("bearer", "token"),
    ("2fa", "token"),
    ("seed", "phrase"),
    ("seed", "words"),
    ("recovery", "phrase"),
    ("recovery", "code"),
    ("recovery", "codes"),
    ("backup", "code"),
    ("backup", "codes"),
    ("mnemonic", "phrase"),
    ("security", "pin"),
    ("كلمة", "المرور"),
    ("كلمه", "المرور"),
    ("كلمة", "السر"),
    ("رمز", "المرور"),
    ("رمز", "عبور"),
    ("kata", "sandi"),
    ("kata", "laluan"),
    ("mat", "khau"),
    ("palavra", "passe"),
    ("κωδικος", "προσβασης"),
    ("κωδικοσ", "προσβασησ"),
    ("api", "キー"),
    ("security", "answer"),
    ("secret", "answer"),
    ("unlock", "code"),
    ("unlock", "pin"),
    ("unlock", "key"),
    ("puk", "code"),
];

/// Words before a key's last segment `pass` that make it a ticket, not a password (`boardingPass`).
const TICKETS: &[&str] = &[
    "boarding",
    "season",
    "bus",
    "day",
    "travel",
    "ski",
    "hall",
    "gate",
    "guest",
    "visitor",
    "press",
    "backstage",
    "rail",
    "train",
    "transit",
    "parking",
    "park",
    "event",
    "festival",
    "museum",
    "weekly",
    "monthly",
    "annual",
    "yearly",
    "week",
    "month",
    "year",
    "all",
    "access",
    "entry",
    "hotel",
    "mountain",
];

/// What may follow "one time" for it to be a one-time secret (not a one-time payment).
const ONE_TIME: &[&str] = &["code", "codes", "password", "passcode", "pin", "token", "key"];

/// Words next to "token" that make it a quantity, not a credential.
const TOKEN_QUANTITIES: &[&str] = &[
    "amount", "amounts", "count", "counts", "number", "balance", "quantity", "price", "sale", "supply",
    "reward", "rewards", "budget", "limit", "cost", "usage", "holder", "holders",
];

/// Words before "credentials" that make them qualifications, not logins.
const QUALIFICATIONS: &[&str] =
    &["professional", "academic", "educational", "teaching", "medical", "nursing", "press", "media"];

/// Words that name a national identifier (personal data, not a credential).
const NATIONAL_IDS: &[&str] = &["ssn", "sozialversicherungsnummer"];

/// What a text asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asks {
    /// A secret: the words that gave it away.
    Secret(String),
    /// A national identifier: the words that gave it away.
    NationalId(String),
}

/// What a field asks for, when it asks for a secret: the words that matched, e.g. "API key".
pub(crate) fn secret_in(text: &str) -> Option<String> {
    match asks(text) {
        Some(Asks::Secret(w) | Asks::NationalId(w)) => Some(w),
        None => None,
    }
}

/// What `text` asks for, read normalised (see the module doc) and with look-alikes folded.
pub fn asks(text: &str) -> Option<Asks> {
    let text = &normalised(text);
    // a sentence that points at a vault is the remedy, not the problem
    let lower = text.to_lowercase();
    if lower.contains("vault") || lower.contains("tresor") {
        return None;
    }
    let with_folded = |text: &str| {
        asks_in(&read(text), text).or_else(|| {
            let folded = fold(text);
            (folded != text).then(|| asks_in(&read(&folded), &folded)).flatten()
        })
    };
    // read as written (a Devanagari or Thai word needs its marks), then with every letter at its
    // base (`Pássword`, `Parolă`, `Mật khẩu`, a combining accent anywhere)
    with_folded(text).or_else(|| {
        let base = bare(text);
        (base != *text).then(|| with_folded(&base)).flatten()
    })
}

/// `text` with its letters at their base: decomposed (NFD) and combining marks dropped.
fn bare(text: &str) -> String {
    text.nfd().filter(|c| !unicode_normalization::char::is_combining_mark(*c)).collect()
}

/// Whether `text` is one identifier (a key or path: no spaces, a lower-case start or an underscore)
/// whose last word is `pass` (`userPass`, `db_pass`, `pass`, `adminPass2`): a password, unless the
/// word before names a ticket (`boardingPass`). A label's "Pass" (an exam passed, an option beside
/// "Fail", a boarding pass) is not read this way, nor a `pass` another word follows (`passRate`).
fn pass_key(ws: &[String], text: &str) -> bool {
    let identifier = !text.chars().any(char::is_whitespace)
        && (text.starts_with(|c: char| c.is_lowercase()) || text.contains('_'));
    if !identifier {
        return false;
    }
    let mut ws = ws.iter().map(String::as_str).filter(|w| !w.chars().all(|c| c.is_ascii_digit()));
    match (ws.next_back(), ws.next_back()) {
        (Some("pass"), None) => true,
        (Some("pass"), Some(before)) => !TICKETS.contains(&before),
        _ => false,
    }
}

/// The words of `text`, letters written one by one joined back: three or more single letters in a
/// row (`p a s s w o r d`, `P-I-N`) are one word.
fn read(text: &str) -> Vec<String> {
    let single = |w: &str| {
        let mut chars = w.chars();
        chars.next().is_some_and(char::is_alphabetic) && chars.next().is_none()
    };
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, out: &mut Vec<String>| {
        if run.len() >= 3 {
            out.push(run.concat());
        } else {
            out.append(run);
        }
        run.clear();
    };
    for w in words::split(text) {
        if single(&w) {
            run.push(w);
        } else {
            flush(&mut run, &mut out);
            out.push(w);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// `text` in the compatibility form a reader sees: NFKC (full-width, mathematical and circled
/// letters, ligatures to plain ones), small capitals to letters, `ß` and `ẞ` to `ss`, the dot of a
/// Turkish `İ` dropped (lower-cased it would leave a combining dot), and invisible characters (zero-width spaces and joiners,
/// soft hyphens, word joiners, byte-order marks) removed.
fn normalised(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.nfkc() {
        match c {
            'ß' | 'ẞ' => out.push_str("ss"),
            'İ' => out.push('I'),
            '\u{0307}' if out.ends_with(['i', 'I']) => {}
            '\u{00AD}' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => {}
            c => out.push(small_capital(c)),
        }
    }
    out
}

/// The lower-case letter a small capital (`ᴘᴀꜱꜱᴡᴏʀᴅ`) stands for; itself otherwise.
fn small_capital(c: char) -> char {
    match c {
        'ᴀ' => 'a',
        'ʙ' => 'b',
        'ᴄ' => 'c',
        'ᴅ' => 'd',
        'ᴇ' => 'e',
        'ꜰ' => 'f',
        'ɢ' => 'g',
        'ʜ' => 'h',
        'ɪ' => 'i',
        'ᴊ' => 'j',
        'ᴋ' => 'k',
        'ʟ' => 'l',
        'ᴍ' => 'm',
        'ɴ' => 'n',
        'ᴏ' => 'o',
        'ᴘ' => 'p',
        'ǫ' => 'q',
        'ʀ' => 'r',
        'ꜱ' => 's',
        'ᴛ' => 't',
        'ᴜ' => 'u',
        'ᴠ' => 'v',
        'ᴡ' => 'w',
        'ʏ' => 'y',
        'ᴢ' => 'z',
        c => c,
    }
}

fn asks_in(ws: &[String], text: &str) -> Option<Asks> {
    let has = |w: &str| ws.iter().any(|x| x.starts_with(w));
    if pass_key(ws, text) {
        return Some(Asks::Secret(ws.join(" ")));
    }
    if let Some(w) = IN_TEXT.iter().find(|w| text.contains(**w)) {
        return Some(Asks::Secret(w.to_string()));
    }
    for (i, w) in ws.iter().enumerate() {
        let next = ws.get(i + 1).map(String::as_str);
        let prev = i.checked_sub(1).map(|p| ws[p].as_str());
        if NATIONAL_IDS.contains(&w.as_str()) {
            return Some(Asks::NationalId(w.clone()));
        }
        if w == "social" && next == Some("security") && ws.get(i + 2).is_some_and(|n| n == "number") {
            return Some(Asks::NationalId("social security number".into()));
        }
        if w == "one" && next == Some("time") && ws.get(i + 2).is_some_and(|n| ONE_TIME.contains(&n.as_str()))
        {
            return Some(Asks::Secret(format!("one-time {}", ws[i + 2])));
        }
        if w == "tan" {
            // the German transaction number: written TAN, or in sms-TAN, mTAN, iTAN
            // or a key or label that is the word alone (`tan`; "Colour: tan" is a colour)
            if text.contains("TAN") || prev.is_some_and(|p| p == "sms" || p == "push") || ws.len() == 1 {
                return Some(Asks::Secret("TAN".into()));
            }
            continue;
        }
        if matches!(w.as_str(), "mtan" | "itan" | "smstan" | "pushtan" | "tannummer") {
            return Some(Asks::Secret(w.clone()));
        }
        // a digit split from its letters (`2FA` reads as 2, fa): the pair is tried glued
        if w.chars().all(|c| c.is_ascii_digit())
            && let (Some(n), Some(after)) = (next, ws.get(i + 2))
        {
            let glued = format!("{w}{n}");
            if PAIRS.iter().any(|(a, b)| *a == glued && b == after) {
                return Some(Asks::Secret(format!("{glued} {after}")));
            }
        }
        let excused = match w.as_str() {
            "token" | "tokens" => [prev, next].iter().flatten().any(|n| TOKEN_QUANTITIES.contains(n)),
            // Italian "parola chiave" is a keyword (the Turkish and Romanian "parola" is a password)
            "parola" => next.is_some_and(|n| matches!(n, "chiave" | "chiavi")),
            "secret" | "secrets" => next.is_some_and(|n| matches!(n, "santa" | "service" | "garden")),
            "pwd" => has("disab"),
            "credential" | "credentials" => prev.is_some_and(|p| QUALIFICATIONS.contains(&p)),
            _ => false,
        };
        if excused {
            continue;
        }
        if let Some(next) = next
            && PAIRS.iter().any(|(a, b)| a == w && *b == next)
        {
            return Some(Asks::Secret(format!("{w} {next}")));
        }
        // runs of one to three words, joined: passWord, Pass-Wort, pass_word, "pass word"
        let mut joined = String::new();
        for (n, part) in ws[i..].iter().take(3).enumerate() {
            joined.push_str(part);
            let run = || ws[i..=i + n].join(" ");
            if WORDS.contains(&joined.as_str()) && (n == 0 || !WORDS.contains(&w.as_str())) {
                return Some(Asks::Secret(run()));
            }
            // stems are looked for inside one word only ("Compass word" is not a password)
            if n == 0 && STEMS.iter().any(|s| joined.contains(*s)) {
                return Some(Asks::Secret(run()));
            }
        }
    }
    None
}

/// Folds look-alikes to the Latin letters they imitate: Cyrillic and Greek homoglyphs, full-width
/// forms, and digits or symbols standing for letters inside a word (`p@ssw0rd`, `Pa55word`).
fn fold(text: &str) -> String {
    let chars: Vec<char> = text.chars().map(homoglyph).collect();
    let letter = |i: Option<usize>| i.and_then(|i| chars.get(i)).is_some_and(|c| c.is_alphabetic());
    let leet_at = |i: usize| leet(chars[i]).is_some();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        // a run of look-alike digits/symbols counts when a letter touches the run
        let run_touches_letter = || {
            let mut j = i;
            while j > 0 && leet_at(j - 1) {
                j -= 1;
            }
            let mut k = i;
            while k + 1 < chars.len() && leet_at(k + 1) {
                k += 1;
            }
            letter(j.checked_sub(1)) || letter(Some(k + 1))
        };
        match leet(c) {
            Some(l) if run_touches_letter() => out.push(l),
            _ => out.push(c),
        }
    }
    out
}

fn leet(c: char) -> Option<char> {
    Some(match c {
        '@' | '4' => 'a',
        '3' => 'e',
        '1' | '!' => 'i',
        '0' => 'o',
        '5' | '$' => 's',
        '7' => 't',
        _ => return None,
    })
}

/// The Latin letter a Cyrillic, Greek or full-width character imitates (itself otherwise).
fn homoglyph(c: char) -> char {
    match c {
        'а' => 'a',
        'А' => 'A',
        'е' | 'ё' => 'e',
        'Е' => 'E',
        'о' | 'ο' => 'o',
        'О' | 'Ο' => 'O',
        'р' | 'ρ' => 'p',
        'Р' | 'Ρ' => 'P',
        'с' | 'ϲ' => 'c',
        'С' => 'C',
        'х' | 'χ' => 'x',
        'Х' | 'Χ' => 'X',
        'у' => 'y',
        'У' => 'Y',
        'і' | 'ι' => 'i',
        'І' | 'Ι' => 'I',
        'ѕ' => 's',
        'Ѕ' => 'S',
        'ј' => 'j',
        'ԁ' => 'd',
        'ԝ' | 'ѡ' => 'w',
        'Ԝ' => 'W',
        'к' | 'κ' => 'k',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'Т' | 'Τ' => 'T',
        'Н' | 'Η' => 'H',
        'В' | 'Β' => 'B',
        'ν' => 'v',
        'Ν' => 'N',
        'Α' => 'A',
        'Ε' => 'E',
        'Ζ' => 'Z',
        '\u{FF21}'..='\u{FF3A}' => char::from(b'A' + (c as u32 - 0xFF21) as u8),
        '\u{FF41}'..='\u{FF5A}' => char::from(b'a' + (c as u32 - 0xFF41) as u8),
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_every_spelling() {
        for s in [
            "password",
            "Passwort",
            "apiKey",
            "api_key",
            "API-Key",
            "APIKey",
            "client-secret",
            "clientSecret",
            "accessToken",
            "refresh_token",
            "privateKey",
            "Private key",
            "db credentials",
            "otp",
            "TOTP code",
            "PIN",
            "pinCode",
            "CVV",
            "cvv2",
            "one-time code",
            "Mot de passe",
            "Kennwort",
            // separators and case inside the word
            "passWord",
            "PassWort",
            "Pass-Wort",
            "pass_word",
            "pass word",
            // German compounds and plurals
            "Benutzerpasswort",
            "Einmalpasswort",
            "Passwörter",
            "Zugangscode",
            "API-Schlüssel",
            "Privater Schlüssel",
            // other languages
            "Clé API",
            "Пароль",
            "Hasło",
            "密码",
            "TAN",
            "sms-TAN",
            // look-alikes
            "p@ssword",
            "Pa55word",
            "P\u{0430}ssword",
            "ｐａｓｓｗｏｒｄ",
            "passw0rd",
            "$ecret",
            "passwordfield",
            // folded: case folding, spacing, compatibility and styled letters
            "Paßwort",
            "PASSWORT",
            "p a s s w o r d",
            "P-A-S-S-W-O-R-D",
            "Your p.i.n",
            "pass\u{200B}word",
            "\u{1D429}\u{1D41A}\u{1D42C}\u{1D42C}\u{1D430}\u{1D428}\u{1D42B}\u{1D41D}",
            "\u{1D40F}\u{1D41A}\u{1D42C}\u{1D42C}\u{1D430}\u{1D428}\u{1D42B}\u{1D41D}",
            "ᴘᴀꜱꜱᴡᴏʀᴅ",
            "ⓟⓐⓢⓢⓦⓞⓡⓓ",
            // card checks, second factors, wallets
            "Sicherheitscode",
            "Kartenprüfnummer",
            "CCV",
            "2FA code",
            "2fa_token",
            "Seed phrase",
            "Recovery phrase",
            "Backup codes",
            "Código de seguridad",
            // the word in other languages
            "Lösenord",
            "Şifre",
            "ŞİFRE",
            "Parola",
            "Parola d'ordine",
            "كلمة المرور",
            "סיסמה",
            "הסיסמה שלך",
            // keys
            "pswd",
            "pw",
            "ccv",
            "seedPhrase",
            "recovery_phrase",
        ] {
            assert!(matches!(asks(s), Some(Asks::Secret(_))), "{s}: {:?}", asks(s));
        }
    }

    #[test]
    fn secrets_with_accents_in_more_languages_and_as_key_fragments() {
        for s in [
            // accents, combining or not, and more languages
            "Pa\u{0301}ssword",
            "Pássword",
            "P\u{0301}assword",
            "Lozinka",
            "Kodeord",
            "Parool",
            "Parolă",
            "Slaptažodis",
            "Wagwoord",
            "Nenosiri",
            "Kata sandi",
            "Mật khẩu",
            "पासवर्ड",
            "Κωδικός πρόσβασης",
            "ΚΩΔΙΚΌΣ ΠΡΌΣΒΑΣΗΣ",
            "APIキー",
            "Geslo",
            "Salasõna",
            "Contrasenya",
            "Palavra-passe",
            "Лозинка",
            // keys
            "userPass",
            "pass",
            "db_pass",
            "adminPass2",
            "puk",
            "tan",
            // labels
            "Mnemonic",
            "Security answer",
            "PUK",
            "Unlock code",
        ] {
            assert!(matches!(asks(s), Some(Asks::Secret(_))), "{s}: {:?}", asks(s));
        }
    }

    #[test]
    fn national_ids_are_their_own_case() {
        for s in ["SSN", "Social security number", "social_security_number", "Sozialversicherungsnummer"] {
            assert!(matches!(asks(s), Some(Asks::NationalId(_))), "{s}: {:?}", asks(s));
        }
    }

    #[test]
    fn innocent_words_pass() {
        for s in [
            "keyboard",
            "monkey",
            "tokenizer",
            "pinned",
            "Key result",
            "Secretary",
            "passenger",
            "Pinboard",
            "spinner",
            "Boarding pass",
            "Primary key date",
            "Tokyo office",
            "vacationDays",
            "urlaubstage",
            "One-time payment",
            "one_time_fee",
            "Pincode",
            "Token amount",
            "tokenAmount",
            "Secret Santa",
            "PWD (person with disability)",
            "Professional credentials",
            "Tan leather",
            "Colour: tan",
            "Top 5 wishes",
            "Room 101",
            "Schlüsselnummer",
            "Name of the vault entry that holds the password",
            "Passage",
            "Compass word count",
            "Parola chiave",
            "Sizes S, M",
            "A B",
            "Passport number",
            "Power (kW)",
            "Pwr",
            "Backup contact",
            "Seed variety",
            "Recovery time",
            "Security deposit",
            "Şirket adı",
            "compass",
            "passport",
            "Passenger count",
            "boardingPass",
            "seasonPass",
            "passRate",
            "Pass",
            "Exam pass mark",
            "Parole officer",
            "Šifra proizvoda",
        ] {
            assert_eq!(asks(s), None, "{s}");
        }
    }
}
