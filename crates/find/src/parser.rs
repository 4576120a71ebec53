//! The syntax of a query: precedence `or` < `and` < `not` < comparison,
//! every node with its span in the query text.

// A query stops at its first error, built once on that path: the size of
// the error value costs nothing here.
#![allow(clippy::result_large_err)]

use super::codes;
use super::lexer::{Tok, Token};
use dgnkit_grammar::{Diagnostic, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn holds(self, o: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            CmpOp::Eq => o == Equal,
            CmpOp::Ne => o != Equal,
            CmpOp::Lt => o == Less,
            CmpOp::Le => o != Greater,
            CmpOp::Gt => o == Greater,
            CmpOp::Ge => o != Less,
        }
    }

    pub fn is_equality(self) -> bool {
        matches!(self, CmpOp::Eq | CmpOp::Ne)
    }

    /// As the query language writes it.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Int(i64, Span),
    /// A string: a value in a comparison, a level name elsewhere.
    Str(Vec<u8>, Span),
    /// A bare word: a level name, or `tune`.
    Word(String, Span),
    /// `f(args)`: `dungeon`, `branch`, `bones`.
    Call {
        func: String,
        func_span: Span,
        args: Vec<Expr>,
        span: Span,
    },
    /// `base.prop`.
    Prop {
        base: Box<Expr>,
        prop: String,
        prop_span: Span,
        span: Span,
    },
    Cmp {
        op: CmpOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `value in lo..hi` (`..=`: `hi` included).
    In {
        value: Box<Expr>,
        lo: Box<Expr>,
        hi: Box<Expr>,
        inclusive: bool,
        /// The `..` or `..=` between them.
        dots: Span,
        span: Span,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>, Span),
    Paren(Box<Expr>, Span),
}

impl Expr {
    pub fn span(&self) -> Span {
        match self {
            Expr::Int(_, s) | Expr::Str(_, s) | Expr::Word(_, s) | Expr::Not(_, s) => *s,
            Expr::Paren(_, s) => *s,
            Expr::Call { span, .. } | Expr::Prop { span, .. } | Expr::In { span, .. } => *span,
            Expr::Cmp { lhs, rhs, .. } => lhs.span().to(rhs.span()),
            Expr::And(a, b) | Expr::Or(a, b) => a.span().to(b.span()),
        }
    }
}

/// Words that cannot name a level without quotes.
pub const KEYWORDS: [&str; 4] = ["and", "or", "not", "in"];

struct Parser {
    toks: Vec<Token>,
    at: usize,
}

pub fn parse(toks: Vec<Token>) -> Result<Expr, Diagnostic> {
    let mut p = Parser { toks, at: 0 };
    if p.peek() == &Tok::End {
        let span = p.span();
        return Err(
            Diagnostic::error(codes::EXPECTED, span, "the query is empty")
                .with_label(span, "expected a condition")
                .with_note("for example: `bigrm and oracle.depth == 5`"),
        );
    }
    let e = p.or()?;
    if p.peek() != &Tok::End {
        let t = p.toks[p.at].clone();
        let hint = if t.tok == Tok::RParen {
            "this `)` closes no `(`".to_string()
        } else {
            "join conditions with `and` or `or`".to_string()
        };
        return Err(Diagnostic::error(
            codes::EXPECTED,
            t.span,
            format!("unexpected {} after a complete condition", t.tok.describe()),
        )
        .with_label(t.span, hint));
    }
    Ok(e)
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at].tok
    }

    fn span(&self) -> Span {
        self.toks[self.at].span
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.at].clone();
        if t.tok != Tok::End {
            self.at += 1;
        }
        t
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(x) if x == w)
    }

    fn expected(&self, what: &str) -> Diagnostic {
        let t = &self.toks[self.at];
        Diagnostic::error(
            codes::EXPECTED,
            t.span,
            format!("expected {what}, found {}", t.tok.describe()),
        )
        .with_label(t.span, format!("expected {what}"))
    }

    fn or(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.and()?;
        while self.is_word("or") {
            self.bump();
            let r = self.and()?;
            e = Expr::Or(Box::new(e), Box::new(r));
        }
        Ok(e)
    }

    fn and(&mut self) -> Result<Expr, Diagnostic> {
        let mut e = self.not()?;
        while self.is_word("and") {
            self.bump();
            let r = self.not()?;
            e = Expr::And(Box::new(e), Box::new(r));
        }
        Ok(e)
    }

    fn not(&mut self) -> Result<Expr, Diagnostic> {
        if self.is_word("not") {
            let start = self.bump().span;
            let e = self.not()?;
            let span = start.to(e.span());
            return Ok(Expr::Not(Box::new(e), span));
        }
        self.cmp()
    }

    fn cmp(&mut self) -> Result<Expr, Diagnostic> {
        let lhs = self.primary()?;
        let op = match self.peek() {
            Tok::Eq => CmpOp::Eq,
            Tok::Ne => CmpOp::Ne,
            Tok::Lt => CmpOp::Lt,
            Tok::Le => CmpOp::Le,
            Tok::Gt => CmpOp::Gt,
            Tok::Ge => CmpOp::Ge,
            Tok::Ident(w) if w == "in" => {
                self.bump();
                let lo = self.primary()?;
                let inclusive = match self.peek() {
                    Tok::DotDot => false,
                    Tok::DotDotEq => true,
                    _ => return Err(self.expected("`..` or `..=` (a range such as `5..8`)")),
                };
                let dots = self.bump().span;
                let hi = self.primary()?;
                let span = lhs.span().to(hi.span());
                return Ok(Expr::In {
                    value: Box::new(lhs),
                    lo: Box::new(lo),
                    hi: Box::new(hi),
                    inclusive,
                    dots,
                    span,
                });
            }
            _ => return Ok(lhs),
        };
        let op_span = self.bump().span;
        let rhs = self.primary()?;
        if matches!(
            self.peek(),
            Tok::Eq | Tok::Ne | Tok::Lt | Tok::Le | Tok::Gt | Tok::Ge
        ) {
            let span = self.span();
            return Err(
                Diagnostic::error(codes::EXPECTED, span, "comparisons do not chain")
                    .with_label(span, "a second comparison")
                    .with_note("write `a < b and b < c`, or `b in a..c` for a range"),
            );
        }
        Ok(Expr::Cmp {
            op,
            op_span,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        })
    }

    fn primary(&mut self) -> Result<Expr, Diagnostic> {
        let t = self.toks[self.at].clone();
        let base = match t.tok {
            Tok::Int(n) => {
                self.bump();
                Expr::Int(n, t.span)
            }
            Tok::Str(s) => {
                self.bump();
                Expr::Str(s, t.span)
            }
            Tok::LParen => {
                self.bump();
                let inner = self.or()?;
                if self.peek() != &Tok::RParen {
                    return Err(self.expected("`)`").with_label(t.span, "to close this `(`"));
                }
                let end = self.bump().span;
                Expr::Paren(Box::new(inner), t.span.to(end))
            }
            Tok::Ident(w) if KEYWORDS.contains(&w.as_str()) => {
                return Err(Diagnostic::error(
                    codes::EXPECTED,
                    t.span,
                    format!("expected a condition or a value, found the keyword `{w}`"),
                )
                .with_label(t.span, "a keyword here")
                .with_note(format!("a level named {w} is written \"{w}\"")));
            }
            Tok::Ident(w) => {
                self.bump();
                if self.peek() == &Tok::LParen {
                    self.bump();
                    let mut args = Vec::new();
                    if self.peek() != &Tok::RParen {
                        loop {
                            args.push(self.or()?);
                            if self.peek() == &Tok::Comma {
                                self.bump();
                                continue;
                            }
                            break;
                        }
                    }
                    if self.peek() != &Tok::RParen {
                        return Err(self.expected("`)` or `,`"));
                    }
                    let end = self.bump().span;
                    Expr::Call {
                        func: w,
                        func_span: t.span,
                        args,
                        span: t.span.to(end),
                    }
                } else {
                    Expr::Word(w, t.span)
                }
            }
            _ => return Err(self.expected("a condition or a value")),
        };
        if self.peek() != &Tok::Dot {
            return Ok(base);
        }
        self.bump();
        let p = self.toks[self.at].clone();
        let Tok::Ident(prop) = p.tok else {
            return Err(self.expected("a property after `.` (`level`, `depth`, ...)"));
        };
        self.bump();
        let span = base.span().to(p.span);
        Ok(Expr::Prop {
            base: Box::new(base),
            prop,
            prop_span: p.span,
            span,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn p(s: &str) -> Result<Expr, Diagnostic> {
        parse(lex(s).unwrap())
    }

    #[test]
    fn precedence_and_spans() {
        let e = p("not a or b and c.depth == 5").unwrap();
        let Expr::Or(l, r) = e else { panic!() };
        assert!(matches!(*l, Expr::Not(..)));
        let Expr::And(_, c) = *r else { panic!() };
        let Expr::Cmp { lhs, op, .. } = *c else {
            panic!()
        };
        assert_eq!(op, CmpOp::Eq);
        assert_eq!(lhs.span(), Span::new(15, 22));
        let e = p(r#"branch("Sokoban").depth in 2..=9"#).unwrap();
        assert!(matches!(
            e,
            Expr::In {
                inclusive: true,
                ..
            }
        ));
        assert_eq!(e.span(), Span::new(0, 32));
    }

    #[test]
    fn errors() {
        for (q, span) in [
            ("", Span::new(0, 0)),
            ("a b", Span::new(2, 3)),
            ("(a", Span::new(2, 2)),
            ("a)", Span::new(1, 2)),
            ("a == ", Span::new(5, 5)),
            ("1 < a < 3", Span::new(6, 7)),
            ("a in 1", Span::new(6, 6)),
            ("a.", Span::new(2, 2)),
            ("and", Span::new(0, 3)),
        ] {
            let e = p(q).unwrap_err();
            assert_eq!((e.code, e.span), (codes::EXPECTED, span), "{q}");
        }
    }
}
