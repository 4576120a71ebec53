//! `--where`: which games to keep, as comparisons of fields joined with
//! `and`, `or`, `not` and parentheses.
//!
//! ```text
//! expr   := or
//! or     := and ("or" and)*
//! and    := unary ("and" unary)*
//! unary  := "not" unary | "(" expr ")" | field op value
//! op     := = | != | < | <= | > | >= | ~        (~: contains)
//! value  := number | "quoted text" | word
//! ```
//!
//! A field is any field of the line (`role`, `death`, `deathlev`, ...) or
//! one dgn xlog computes: `line`, `target`, `dungeon` (the likeliest),
//! `level`, `special` (the likeliest, empty for a filler level), `how`,
//! `mode`, `bones_p`. Two numbers (decimal or 0x hexadecimal) compare as
//! numbers, anything else as text. A comparison with a field the line does
//! not have is false.

use super::reader::parse_int;
use std::cmp::Ordering;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Contains,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Cmp {
        field: String,
        op: Op,
        text: String,
        number: Option<f64>,
    },
    Not(Box<Node>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
}

/// A parsed `--where` expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Filter {
    root: Node,
}

/// A `--where` expression that does not parse: the message and the byte
/// offset where it goes wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilterError {
    pub offset: usize,
    pub message: String,
}

impl std::fmt::Display for FilterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Word(String),
    Text(String),
    Op(Op),
    Open,
    Close,
}

fn number(s: &str) -> Option<f64> {
    if let Some(i) = parse_int(s.as_bytes()) {
        return Some(i as f64);
    }
    let ok = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
    if ok {
        s.parse::<f64>().ok().filter(|v| v.is_finite())
    } else {
        None
    }
}

fn lex(src: &str) -> Result<Vec<(usize, Tok)>, FilterError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'(' => {
                out.push((start, Tok::Open));
                i += 1;
            }
            b')' => {
                out.push((start, Tok::Close));
                i += 1;
            }
            b'"' => {
                let mut text = Vec::new();
                i += 1;
                loop {
                    match b.get(i) {
                        None => {
                            return Err(FilterError {
                                offset: start,
                                message: "unterminated \"text\": add the closing quote".into(),
                            })
                        }
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') if i + 1 < b.len() => {
                            text.push(b[i + 1]);
                            i += 2;
                        }
                        Some(&x) => {
                            text.push(x);
                            i += 1;
                        }
                    }
                }
                out.push((
                    start,
                    Tok::Text(String::from_utf8_lossy(&text).into_owned()),
                ));
            }
            b'=' | b'!' | b'<' | b'>' | b'~' => {
                let two = b.get(i + 1) == Some(&b'=');
                let op = match (c, two) {
                    (b'=', _) => Op::Eq,
                    (b'!', true) => Op::Ne,
                    (b'<', true) => Op::Le,
                    (b'<', false) => Op::Lt,
                    (b'>', true) => Op::Ge,
                    (b'>', false) => Op::Gt,
                    (b'~', _) => Op::Contains,
                    _ => {
                        return Err(FilterError {
                            offset: start,
                            message: "`!` must be followed by `=` (use `not` to negate)".into(),
                        })
                    }
                };
                // `==` reads as `=`.
                i += if two && c != b'~' { 2 } else { 1 };
                out.push((start, Tok::Op(op)));
            }
            _ => {
                while i < b.len() && !b" \t\n\r()\"=!<>~".contains(&b[i]) {
                    i += 1;
                }
                out.push((start, Tok::Word(src[start..i].to_string())));
            }
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.1)
    }

    fn offset(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |t| t.0)
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, FilterError> {
        Err(FilterError {
            offset: self.offset(),
            message: message.into(),
        })
    }

    fn keyword(&self, k: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(w)) if w == k)
    }

    fn or(&mut self, depth: usize) -> Result<Node, FilterError> {
        let mut left = self.and(depth)?;
        while self.keyword("or") {
            self.pos += 1;
            let right = self.and(depth)?;
            left = Node::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self, depth: usize) -> Result<Node, FilterError> {
        let mut left = self.unary(depth)?;
        while self.keyword("and") {
            self.pos += 1;
            let right = self.unary(depth)?;
            left = Node::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self, depth: usize) -> Result<Node, FilterError> {
        if depth > 64 {
            return self.err("nested too deeply (64 levels at most)");
        }
        if self.keyword("not") {
            self.pos += 1;
            return Ok(Node::Not(Box::new(self.unary(depth + 1)?)));
        }
        match self.peek().cloned() {
            Some(Tok::Open) => {
                self.pos += 1;
                let e = self.or(depth + 1)?;
                if self.peek() != Some(&Tok::Close) {
                    return self.err("expected `)`");
                }
                self.pos += 1;
                Ok(e)
            }
            Some(Tok::Word(field)) if field != "and" && field != "or" => {
                self.pos += 1;
                let Some(Tok::Op(op)) = self.peek().cloned() else {
                    return self.err(format!(
                        "expected a comparison after `{field}` (=, !=, <, <=, >, >=, ~)"
                    ));
                };
                self.pos += 1;
                let (text, quoted) = match self.peek().cloned() {
                    Some(Tok::Word(w)) => (w, false),
                    Some(Tok::Text(t)) => (t, true),
                    _ => return self.err("expected a value (a number, a word or \"text\")"),
                };
                self.pos += 1;
                let number = if quoted { None } else { number(&text) };
                Ok(Node::Cmp {
                    field,
                    op,
                    text,
                    number,
                })
            }
            _ => self.err("expected a field name, `not` or `(`"),
        }
    }
}

/// The fields `dgn xlog` computes for a game, beside the line's own.
pub const OWN_FIELDS: [&str; 8] = [
    "line", "target", "dungeon", "level", "special", "how", "mode", "bones_p",
];

impl Filter {
    /// The fields the expression compares, each once, in order.
    pub fn fields(&self) -> Vec<&str> {
        fn walk<'a>(n: &'a Node, out: &mut Vec<&'a str>) {
            match n {
                Node::Cmp { field, .. } => {
                    if !out.contains(&field.as_str()) {
                        out.push(field);
                    }
                }
                Node::Not(x) => walk(x, out),
                Node::And(a, b) | Node::Or(a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &mut out);
        out
    }

    pub fn parse(src: &str) -> Result<Filter, FilterError> {
        let toks = lex(src)?;
        let mut p = Parser {
            toks,
            pos: 0,
            end: src.len(),
        };
        let root = p.or(0)?;
        if p.pos < p.toks.len() {
            return p.err("expected `and`, `or` or the end of the expression");
        }
        Ok(Filter { root })
    }

    /// Whether a game whose fields `get` returns passes.
    pub fn matches<'a>(&self, get: &dyn Fn(&str) -> Option<std::borrow::Cow<'a, str>>) -> bool {
        eval(&self.root, get)
    }
}

fn eval<'a>(n: &Node, get: &dyn Fn(&str) -> Option<std::borrow::Cow<'a, str>>) -> bool {
    match n {
        Node::Not(x) => !eval(x, get),
        Node::And(a, b) => eval(a, get) && eval(b, get),
        Node::Or(a, b) => eval(a, get) || eval(b, get),
        Node::Cmp {
            field,
            op,
            text,
            number: want,
        } => {
            let Some(have) = get(field) else {
                return false;
            };
            if *op == Op::Contains {
                return have.to_lowercase().contains(&text.to_lowercase());
            }
            let ord = match (number(&have), want) {
                (Some(a), Some(b)) => a.partial_cmp(b),
                _ => Some(have.as_ref().cmp(text.as_str())),
            };
            let Some(ord) = ord else {
                return false;
            };
            match op {
                Op::Eq => ord == Ordering::Equal,
                Op::Ne => ord != Ordering::Equal,
                Op::Lt => ord == Ordering::Less,
                Op::Le => ord != Ordering::Greater,
                Op::Gt => ord == Ordering::Greater,
                Op::Ge => ord != Ordering::Less,
                Op::Contains => false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn check(expr: &str, fields: &[(&str, &str)]) -> bool {
        let f = Filter::parse(expr).unwrap();
        f.matches(&|k| {
            fields
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| Cow::Owned(v.to_string()))
        })
    }

    #[test]
    fn comparisons() {
        let g = [
            ("role", "Val"),
            ("deathlev", "12"),
            ("flags", "0x4"),
            ("death", "killed by a jackal"),
        ];
        assert!(check("role = Val", &g));
        assert!(check("role != Wiz", &g));
        assert!(check("deathlev >= 10 and deathlev < 13", &g));
        assert!(!check("deathlev > 12", &g));
        assert!(check("deathlev > 9", &g), "numbers compare as numbers");
        assert!(check("flags = 4", &g));
        assert!(check("death ~ JACKAL", &g));
        assert!(check("death = \"killed by a jackal\"", &g));
        assert!(check("not role = Wiz", &g));
        assert!(check("role = Wiz or (deathlev = 12 and not flags = 1)", &g));
        assert!(!check("missing = 1", &g));
        assert!(!check("missing != 1", &g));
    }

    #[test]
    fn errors_point_at_the_problem() {
        for (src, at) in [
            ("role", 4),
            ("role = ", 7),
            ("(role = Val", 11),
            ("role = Val extra", 11),
            ("\"open", 0),
            ("role ! Val", 5),
            ("and", 0),
        ] {
            let e = Filter::parse(src).unwrap_err();
            assert_eq!(e.offset, at, "{src}: {e}");
        }
        let deep = "not ".repeat(100) + "a = 1";
        assert!(Filter::parse(&deep).is_err());
    }
}
