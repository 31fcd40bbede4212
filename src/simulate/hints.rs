//! The hints in words after a sample's check: which of the usual rule variants
//! ([`super::variants`]) and which other layouts of the board the sample fits, or cannot be told
//! from (`verify`'s text and JSON, and the Python package's hints).

use super::check::Comparison;
use super::variants::{LayoutFit, NotTried, VariantFit};
use crate::board::Board;
use crate::text::count;

/// The sentences explaining how the sample fits the rule variants (`not_tried`: those whose
/// work was estimated too long).
pub fn variant_sentences(
    board: &Board,
    pass: bool,
    fits: &[VariantFit],
    not_tried: &[NotTried],
) -> Vec<String> {
    let own = board.rules();
    let own_words = |f: &VariantFit| -> String {
        let mut w = Vec::new();
        if f.rules.overshoot != own.overshoot {
            w.push(format!("overshoot = {}", own.overshoot));
        }
        if f.rules.start != own.start {
            w.push(format!("start = {}", own.start));
        }
        if f.rules.roll_again != own.roll_again {
            w.push(format!("roll again = {}", own.roll_again));
        }
        w.join(", ")
    };
    let mut out = Vec::new();
    let twins: Vec<&VariantFit> = fits.iter().filter(|f| f.same_law_as_board).collect();
    if !twins.is_empty() {
        let names: Vec<String> = twins.iter().map(|f| f.changes.join(", ")).collect();
        out.push(format!(
            "on this board, {} give{} exactly the same law of turns as the board's rules: no sample can tell them apart",
            names.join("; "),
            if names.len() == 1 { "s" } else { "" }
        ));
    }
    let others: Vec<(usize, &VariantFit)> = fits
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.same_law_as_board)
        .collect();
    let undecided: Vec<String> = fits
        .iter()
        .filter(|f| f.same_law_undecided)
        .map(|f| f.changes.join(", "))
        .collect();
    if !undecided.is_empty() {
        out.push(format!(
            "whether {} give{} exactly the same law of turns as the board's rules or as each other was not decided: the exact comparison would take too long",
            undecided.join("; "),
            if undecided.len() == 1 { "s" } else { "" }
        ));
    }
    if !pass {
        if others.is_empty() && not_tried.is_empty() {
            out.push(
                "the sample fits none of the usual rule variants (overshoot stay/bounce/allow, start 0/1, roll again none/unlimited) either".to_string(),
            );
        } else if others.is_empty() {
            out.push(format!(
                "the sample fits none of the usual rule variants tried (overshoot stay/bounce/allow, start 0/1, roll again none/unlimited) either; {} not tried (below)",
                count(not_tried.len() as u64, "variant")
            ));
        }
        for class in same_law_classes(fits, &others) {
            // The fewest changes first: the simplest explanation leads.
            let lead = &fits[class[0]];
            let mut s = format!(
                "your sample matches {}, not {}",
                lead.changes.join(", "),
                own_words(lead)
            );
            if let Some(same) = same_law_parenthesis(fits, &class) {
                s.push_str(&same);
            }
            out.push(s);
        }
    } else if !others.is_empty() {
        let names: Vec<String> = others.iter().map(|(_, f)| f.changes.join(", ")).collect();
        out.push(format!(
            "the sample also fits {}: too few games to tell these rules apart",
            names.join("; ")
        ));
    }
    out
}

/// The parenthesis after a class's hint naming its other variants by what they add to its
/// lead ("with overshoot = stay"), or `None` for a class of one.
fn same_law_parenthesis(fits: &[VariantFit], class: &[usize]) -> Option<String> {
    let lead = &fits[class[0]];
    let with: Vec<String> = class[1..]
        .iter()
        .map(|&j| {
            let more: Vec<&String> = fits[j]
                .changes
                .iter()
                .filter(|c| !lead.changes.contains(c))
                .collect();
            let superset = lead.changes.iter().all(|c| fits[j].changes.contains(c));
            match superset {
                true => format!("with {}", join_words(&more)),
                false => format!("with {} instead", fits[j].changes.join(", ")),
            }
        })
        .collect();
    let last = with.len().checked_sub(1)?;
    let listed = match last {
        0 => with[0].clone(),
        _ => format!("{}; or {}", with[..last].join("; "), with[last]),
    };
    Some(format!(
        " (on this board the law is exactly the same {listed}: no sample can tell them apart)"
    ))
}

/// The fitting variants of `others` (indices into `fits`, none with the board's own law) in
/// classes of exactly the same law (linked by [`VariantFit::same_law_as`]), each class by its
/// variants' number of changes and the classes by their simplest's.
fn same_law_classes(fits: &[VariantFit], others: &[(usize, &VariantFit)]) -> Vec<Vec<usize>> {
    let mut placed = vec![false; fits.len()];
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for &(i, _) in others {
        if placed[i] {
            continue;
        }
        placed[i] = true;
        let mut class = vec![i];
        let mut k = 0;
        while k < class.len() {
            for &j in &fits[class[k]].same_law_as {
                if !placed[j] && !fits[j].same_law_as_board {
                    placed[j] = true;
                    class.push(j);
                }
            }
            k += 1;
        }
        class.sort_by_key(|&j| (fits[j].changes.len(), j));
        classes.push(class);
    }
    classes.sort_by_key(|c| (fits[c[0]].changes.len(), c[0]));
    classes
}

/// Rule words joined by commas.
fn join_words(words: &[&String]) -> String {
    words
        .iter()
        .map(|w| w.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The hints naming the other layouts of the board the sample fits: what it matches instead
/// (a failed sample), or what it cannot be told from (a passed one whose mean is nearer the
/// layout's than the board's: a layout the sample fits less well is not worth a hint).
pub fn layout_sentences(c: &Comparison, layouts: &[LayoutFit]) -> Vec<String> {
    named_layouts(c, layouts)
        .into_iter()
        .map(|l| {
            let (name, here, there) = (l.layout.name, l.layout.here, l.layout.there);
            let layout = format!(
                "{name}, this board's other common layout ({} -> {} instead of {} -> {})",
                there.from, there.to, here.from, here.to
            );
            match c.pass {
                false => format!("your sample matches {layout}"),
                true => format!("the sample also fits {layout}: too few games to tell them apart"),
            }
        })
        .collect()
}

/// The layouts a hint names: every one the sample fits when it fails the board, else those
/// whose mean it is nearer than the board's.
pub(crate) fn named_layouts<'a>(c: &Comparison, layouts: &'a [LayoutFit]) -> Vec<&'a LayoutFit> {
    layouts
        .iter()
        .filter(|l| !c.pass || l.comparison.mean.z.abs() < c.mean.z.abs())
        .collect()
}
