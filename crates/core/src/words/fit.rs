//! Process fit: does a form's key bind one of the process's own variables?
//!
//! A form whose keys are the process's variable names needs no mapping afterwards; one that invents
//! `vacationDays` for a process that says `urlaubstage` has made work for somebody. The gate does not
//! rename anything (the author may mean new data), it warns when a key binds nothing and a variable
//! that probably means the same exists. "Probably the same" is decided by spelling (`customerName` vs
//! `customer_name`, `adress` vs `address`) and by meaning for the common words of business forms across
//! English, German, French, Spanish and Dutch (`vacationDays` vs `urlaubstage`: vacation = Urlaub,
//! days = Tage), including German compounds.

use crate::words;

/// Synonym groups: words of one group mean the same thing on a form. Each group's first word is its
/// name. Plural and inflected forms are listed where they differ.
const LEXICON: &[&[&str]] = &[
    &[
        "vacation",
        "vacations",
        "holiday",
        "holidays",
        "leave",
        "urlaub",
        "urlaubs",
        "ferien",
        "vacances",
        "conge",
        "conges",
        "vacaciones",
        "vakantie",
        "verlof",
    ],
    &["day", "days", "tag", "tage", "tagen", "jour", "jours", "dia", "dias", "dag", "dagen"],
    &["date", "dates", "datum", "fecha"],
    &["start", "begin", "beginning", "beginn", "anfang", "debut", "inicio", "from", "von", "vanaf"],
    &["end", "ende", "fin", "eind", "until", "bis", "to"],
    &["amount", "betrag", "summe", "sum", "montant", "importe", "bedrag", "total", "gesamt", "totaal"],
    &["name", "names", "namen", "nom", "nombre", "naam"],
    &["first", "vorname", "prenom", "firstname", "given", "voornaam"],
    &["last", "nachname", "surname", "family", "lastname", "apellido", "achternaam"],
    &[
        "comment",
        "comments",
        "kommentar",
        "bemerkung",
        "anmerkung",
        "commentaire",
        "comentario",
        "opmerking",
        "note",
        "notes",
        "remark",
        "remarks",
        "notiz",
    ],
    &[
        "approved",
        "approve",
        "approval",
        "genehmigt",
        "genehmigung",
        "freigabe",
        "freigegeben",
        "approuve",
        "aprobado",
        "goedgekeurd",
        "accepted",
        "akzeptiert",
    ],
    &["rejected", "reject", "abgelehnt", "ablehnung", "refuse", "rechazado", "afgewezen", "denied"],
    &["reason", "grund", "begruendung", "raison", "motif", "motivo", "reden", "justification"],
    &["customer", "customers", "kunde", "kunden", "client", "clients", "cliente", "klant"],
    &["address", "adresse", "anschrift", "direccion", "adres"],
    &["email", "mail", "courriel", "correo"],
    &["phone", "telefon", "telephone", "telefono", "tel", "telefoon", "mobile", "handy"],
    &[
        "employee",
        "employees",
        "mitarbeiter",
        "mitarbeitende",
        "mitarbeiterin",
        "employe",
        "empleado",
        "medewerker",
        "staff",
    ],
    &[
        "manager",
        "vorgesetzter",
        "vorgesetzte",
        "teamleitung",
        "leiter",
        "chef",
        "jefe",
        "supervisor",
        "leidinggevende",
    ],
    &["order", "orders", "bestellung", "auftrag", "commande", "pedido", "bestelling"],
    &["invoice", "invoices", "rechnung", "facture", "factura", "factuur", "bill"],
    &["price", "preis", "prix", "precio", "prijs", "cost", "kosten", "costs"],
    &["quantity", "menge", "anzahl", "quantite", "cantidad", "aantal", "count", "qty"],
    &["category", "kategorie", "categorie", "categoria", "type", "art"],
    &["description", "beschreibung", "descripcion", "omschrijving", "details"],
    &["number", "nummer", "numero", "nr", "no", "num"],
    &[
        "substitute",
        "vertretung",
        "stellvertreter",
        "stellvertretung",
        "deputy",
        "replacement",
        "remplacant",
        "sustituto",
        "vervanger",
    ],
    &["decision", "entscheidung", "beslissing"],
    &["city", "stadt", "ort", "ville", "ciudad", "stad", "town"],
    &["country", "land", "pays", "pais"],
    &["zip", "postcode", "plz", "postleitzahl", "postal", "cp"],
    &["street", "strasse", "rue", "calle", "straat"],
    &["birth", "geburt", "geburts", "naissance", "nacimiento", "geboorte"],
    &["company", "firma", "unternehmen", "societe", "empresa", "bedrijf"],
    &["department", "abteilung", "service", "departamento", "afdeling"],
    &["project", "projekt", "projet", "proyecto"],
    &["product", "produkt", "produit", "producto"],
    &["item", "items", "artikel", "position", "posten", "article"],
    &["currency", "waehrung", "devise", "moneda", "valuta"],
    &["request", "antrag", "anfrage", "demande", "solicitud", "aanvraag"],
    &["requester", "antragsteller", "applicant", "demandeur", "solicitante", "aanvrager", "initiator"],
    &["status", "zustand", "etat", "estado"],
    &["priority", "prioritaet", "priorite", "prioridad", "prioriteit"],
    &["due", "faellig", "frist", "deadline", "echeance"],
    &["hours", "hour", "stunden", "stunde", "heures", "horas", "uren"],
    &["weight", "gewicht", "poids", "peso"],
    &["size", "groesse", "taille", "tamano", "grootte"],
    &["age", "alter", "edad", "leeftijd"],
    &["gender", "geschlecht", "sexe", "genero", "geslacht"],
    &["signature", "unterschrift", "firma"],
    &["account", "konto", "compte", "cuenta", "rekening"],
    &["receipt", "beleg", "quittung", "recu", "recibo", "bon"],
    &["shipping", "versand", "lieferung", "livraison", "envio", "verzending", "delivery"],
];

/// Words that carry no meaning of their own in an identifier.
const STOPWORDS: &[&str] = &[
    "of", "the", "a", "an", "for", "is", "has", "de", "del", "la", "le", "les", "du", "der", "die", "das",
    "des", "dem", "den", "fuer", "van", "het", "een",
];

/// The synonym group of a word (by its first word), or the word itself.
fn concept(word: &str) -> &str {
    LEXICON.iter().find(|g| g.contains(&word)).map_or(word, |g| g[0])
}

/// Words longer than this are not split: the longest lexicon word has 16 letters, and a compound of
/// a few of them stays well below. It bounds the split's recursion (one level per part).
const MOST_COMPOUND_BYTES: usize = 64;

/// Splits a word into lexicon words (German compounds: `urlaubstage` = urlaub + s + tage), or returns
/// it whole. Greedy from the left, longest match first, allowing the linking `s`/`es`/`n`.
fn decompose(word: &str) -> Vec<&str> {
    /// `failed` holds the lengths of the rests already found not to split: a rest splits or not
    /// whatever came before it, so each is tried once (without it, `tagentagen…x` takes exponential
    /// time: `tage`+`n` and `tagen` both fit at every step).
    fn go<'w>(rest: &'w str, out: &mut Vec<&'w str>, failed: &mut Vec<usize>) -> bool {
        if rest.is_empty() {
            return true;
        }
        if failed.contains(&rest.len()) {
            return false;
        }
        let mut ends: Vec<usize> = rest.char_indices().map(|(i, c)| i + c.len_utf8()).collect();
        ends.reverse();
        for end in ends {
            let head = &rest[..end];
            if head.len() < 2 || !LEXICON.iter().any(|g| g.contains(&head)) {
                continue;
            }
            out.push(head);
            for link in ["", "s", "es", "n"] {
                if let Some(tail) = rest[end..].strip_prefix(link)
                    && go(tail, out, failed)
                {
                    return true;
                }
            }
            out.pop();
        }
        failed.push(rest.len());
        false
    }
    let mut out = Vec::new();
    let splits = (5..=MOST_COMPOUND_BYTES).contains(&word.len()) && go(word, &mut out, &mut Vec::new());
    if splits && out.len() > 1 { out } else { vec![word] }
}

/// The concepts of an identifier, sorted: what it means regardless of language and word order.
fn meaning(identifier: &str) -> Vec<String> {
    let mut concepts: Vec<String> = words::split(identifier)
        .iter()
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .flat_map(|w| decompose(w).into_iter().map(|p| concept(p).to_string()).collect::<Vec<_>>())
        .collect();
    concepts.sort();
    concepts.dedup();
    concepts
}

/// Lower case without separators: `customer_Name` → `customername`.
fn squashed(s: &str) -> String {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase).collect()
}

/// The first of `names` (not `name` itself) one edit away from `name` (a letter added, dropped,
/// changed, or two neighbours swapped), for a name of four characters or more: a likely misspelling.
pub(crate) fn one_edit_away<'v>(name: &str, names: &[&'v str]) -> Option<&'v str> {
    let len = name.chars().count();
    if len < 4 {
        return None;
    }
    names
        .iter()
        .copied()
        .find(|n| n.chars().count().abs_diff(len) <= 1 && strsim::damerau_levenshtein(name, n) == 1)
}

/// The process variable that `key` most likely means, when `key` itself is not one.
pub(crate) fn close_variable<'v>(key: &str, variables: &[&'v str]) -> Option<&'v str> {
    let key_squashed = squashed(key);
    let key_meaning = meaning(key);
    let mut best: Option<(f64, &str)> = None;
    for &var in variables {
        let var_squashed = squashed(var);
        let score = if var_squashed == key_squashed {
            1.0
        } else if !key_meaning.is_empty() && meaning(var) == key_meaning {
            0.95
        } else {
            let s = strsim::normalized_damerau_levenshtein(&key_squashed, &var_squashed);
            if s >= 0.8 && key_squashed.len() >= 4 { s * 0.9 } else { 0.0 }
        };
        if score > 0.0 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, var));
        }
    }
    best.map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_away_is_a_likely_misspelling() {
        let names = ["eligibilityCheck", "amount", "approved"];
        assert_eq!(one_edit_away("elegibilityCheck", &names), Some("eligibilityCheck"));
        assert_eq!(one_edit_away("approvde", &names), Some("approved"));
        assert_eq!(one_edit_away("amount", &names), None, "not itself");
        assert_eq!(one_edit_away("amt", &["amo"]), None, "too short to tell");
    }

    #[test]
    fn meaning_across_languages() {
        let vars = ["urlaubstage", "startDate", "approved", "vertretung"];
        assert_eq!(close_variable("vacationDays", &vars), Some("urlaubstage"));
        assert_eq!(close_variable("days_of_vacation", &vars), Some("urlaubstage"));
        assert_eq!(close_variable("start_date", &vars), Some("startDate"));
        assert_eq!(close_variable("beginDatum", &vars), Some("startDate"));
        assert_eq!(close_variable("isApproved", &vars), Some("approved"), "by spelling");
        assert_eq!(close_variable("substitute", &vars), Some("vertretung"));
        assert_eq!(close_variable("favouriteColour", &vars), None);
    }

    #[test]
    fn spelling() {
        assert_eq!(close_variable("adress", &["address", "city"]), Some("address"));
        assert_eq!(close_variable("customerName", &["customer_name"]), Some("customer_name"));
        assert_eq!(close_variable("id", &["ids"]), None, "too short to guess");
    }

    #[test]
    fn compounds() {
        assert_eq!(decompose("urlaubstage"), ["urlaubs", "tage"]);
        assert_eq!(decompose("kundennummer"), ["kunden", "nummer"]);
        assert_eq!(decompose("keyboard"), ["keyboard"]);
    }

    #[test]
    fn compounds_that_almost_split_take_no_time() {
        // every prefix splits two ways and the last letter fails them all: exponential without the
        // memory of failed rests
        let word = format!("{}x", "tagen".repeat(12));
        assert_eq!(decompose(&word), [word.as_str()]);
        let long = format!("{}x", "tagen".repeat(40));
        assert_eq!(decompose(&long), [long.as_str()], "too long to be a compound");
        assert_eq!(close_variable(&long, &["tagentagen"]), None);
        assert_eq!(decompose("tagentagen"), ["tagen", "tagen"]);
    }
}
