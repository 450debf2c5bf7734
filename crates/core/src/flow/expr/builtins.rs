//! The fixed vocabularies of the two expression languages: Camunda 8 FEEL built-in function names
//! (many of them several words long), FEEL keywords, JUEL keywords and the Camunda 7 engine objects.
//!
//! The FEEL list is `@camunda/feel-builtins` 1.4.1 (`camundaBuiltins`: the standard FEEL functions
//! plus the Camunda extensions), the list bpmn.io's variable resolver ignores, plus the deprecated
//! names the engine still accepts and the connector functions `bpmnError` / `jobError`. It is held in
//! five parts: the functions whose first argument is a date, a list, a number or a string (which tell
//! `uses.rs` what a variable is), and the rest. It knows nothing of where an expression comes from.

/// The Camunda 8 FEEL built-in functions not in the lists by argument below, each as its words. A
/// built-in's name followed by `(` is a call.
const OTHER_BUILTINS: &[&str] = &[
    // standard FEEL (conversion, boolean, context, list, numeric, range, string, temporal)
    "not",
    "get value",
    "get entries",
    "context put",
    "context merge",
    "string",
    "number",
    "context",
    "from json",
    "to json",
    "min",
    "max",
    "stddev",
    "mode",
    "insert before",
    "remove",
    "before",
    "after",
    "meets",
    "met by",
    "overlaps",
    "overlaps before",
    "overlaps after",
    "finishes",
    "finished by",
    "includes",
    "during",
    "starts",
    "started by",
    "coincides",
    "now",
    "today",
    // Camunda extensions
    "is defined",
    "get or else",
    "assert",
    "partition",
    "fromAi",
    "random number",
    "uuid",
    "to base64",
    "is blank",
    // deprecated names still accepted by the engine
    "and",
    "or",
    "put",
    "put all",
    "appendAll",
    "is",
    // connector result-expression helpers
    "bpmnError",
    "jobError",
];

/// Functions whose arguments are dates, times or durations.
pub(crate) const DATE_FUNCTIONS: &[&str] = &[
    "date",
    "time",
    "date and time",
    "duration",
    "years and months duration",
    "day of week",
    "day of year",
    "month of year",
    "week of year",
    "last day of month",
];

/// Functions whose first argument is a list.
pub(crate) const LIST_FUNCTIONS: &[&str] = &[
    "count",
    "list contains",
    "sum",
    "mean",
    "median",
    "all",
    "any",
    "append",
    "concatenate",
    "distinct values",
    "flatten",
    "index of",
    "reverse",
    "sort",
    "sublist",
    "union",
    "product",
    "is empty",
    "duplicate values",
    "string join",
];

/// Functions whose first argument is a number.
pub(crate) const NUMBER_FUNCTIONS: &[&str] = &[
    "abs",
    "floor",
    "ceiling",
    "decimal",
    "round up",
    "round down",
    "round half up",
    "round half down",
    "odd",
    "even",
    "sqrt",
    "log",
    "exp",
    "modulo",
];

/// Functions whose first argument is a string.
pub(crate) const TEXT_FUNCTIONS: &[&str] = &[
    "string length",
    "upper case",
    "lower case",
    "substring",
    "substring before",
    "substring after",
    "contains",
    "starts with",
    "ends with",
    "matches",
    "replace",
    "split",
    "trim",
    "extract",
];

/// The longest built-in needs this many words.
const MAX_BUILTIN_WORDS: usize = 4;

/// The built-ins by their first word, each as its words: a name is looked up once per word read, so
/// most words (no built-in starts with them) cost one hash lookup.
static BY_FIRST_WORD: std::sync::LazyLock<std::collections::HashMap<&'static str, Vec<Vec<&'static str>>>> =
    std::sync::LazyLock::new(|| {
        let mut map: std::collections::HashMap<&'static str, Vec<Vec<&'static str>>> =
            std::collections::HashMap::new();
        let all = [OTHER_BUILTINS, DATE_FUNCTIONS, LIST_FUNCTIONS, NUMBER_FUNCTIONS, TEXT_FUNCTIONS];
        for b in all.into_iter().flatten() {
            let words: Vec<&'static str> = b.split(' ').collect();
            map.entry(words[0]).or_default().push(words);
        }
        map
    });

/// How many of `words` (from the first) spell a built-in function name, the longest match; 0 if none.
pub(crate) fn builtin_words(words: &[&str]) -> usize {
    let Some(candidates) = words.first().and_then(|w| BY_FIRST_WORD.get(w)) else {
        return 0;
    };
    candidates
        .iter()
        .filter(|b| b.len() <= words.len().min(MAX_BUILTIN_WORDS) && b.iter().zip(words).all(|(a, w)| a == w))
        .map(Vec::len)
        .max()
        .unwrap_or(0)
}

/// FEEL words that are never part of a name: operators, literals and the grammar's keywords.
/// (`of` only counts after `instance`, `function` only before `(`; the scanner handles both.)
pub(crate) fn is_feel_keyword(word: &str) -> bool {
    matches!(
        word,
        "if" | "then"
            | "else"
            | "for"
            | "in"
            | "return"
            | "some"
            | "every"
            | "satisfies"
            | "and"
            | "or"
            | "not"
            | "between"
            | "instance"
            | "null"
            | "true"
            | "false"
            | "function"
    )
}

/// JUEL keywords and operator words (`empty`, `eq`, `div`, ...), never variables.
pub(crate) fn is_juel_keyword(word: &str) -> bool {
    matches!(
        word,
        "empty"
            | "not"
            | "eq"
            | "ne"
            | "lt"
            | "gt"
            | "le"
            | "ge"
            | "and"
            | "or"
            | "div"
            | "mod"
            | "true"
            | "false"
            | "null"
            | "instanceof"
    )
}

/// The objects a Camunda 7 / Flowable / Activiti engine puts in every expression's scope: never
/// process variables themselves (`execution.getVariable("x")` reads `x`, not `execution`).
pub(crate) fn is_engine_object(word: &str) -> bool {
    matches!(
        word,
        "execution"
            | "task"
            | "externalTask"
            | "caseExecution"
            | "authorization"
            | "variableScope"
            | "variableContext"
            | "connector"
            | "camunda"
            | "flowable"
            | "activiti"
    )
}

/// The engine-object methods whose first string argument names a variable that is read.
pub(crate) fn is_variable_getter(method: &str) -> bool {
    matches!(
        method,
        "getVariable"
            | "getVariableLocal"
            | "getVariableTyped"
            | "getVariableLocalTyped"
            | "hasVariable"
            | "hasVariableLocal"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_builtin_wins() {
        assert_eq!(builtin_words(&["date", "and", "time", "x"]), 3);
        assert_eq!(builtin_words(&["date", "x"]), 1);
        assert_eq!(builtin_words(&["years", "and", "months", "duration"]), 4);
        assert_eq!(builtin_words(&["get", "or", "else"]), 3);
        assert_eq!(builtin_words(&["string", "join"]), 2);
        assert_eq!(builtin_words(&["order"]), 0);
        assert_eq!(builtin_words(&[]), 0);
    }
}
