//! Predict, then run: before a GPU run the reader may write down what they expect, and the
//! run's result is set beside it. The guess is taken when the result arrives, so changing it
//! afterwards does not rewrite what was predicted; it stays in this page (not in the link).

use leptos::prelude::*;
use std::ops::RangeInclusive;

/// What the reader is asked to predict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guess {
    /// A whole number in this range, e.g. the racy final count.
    Number(RangeInclusive<i64>),
    /// Yes or no, e.g. "will the weak outcome show?"; the result is yes when it is above 0.
    YesNo,
}

/// The reader's guess for one run, and what the GPU gave back.
fn verdict(guess: &Guess, predicted: Option<i64>, actual: i64) -> String {
    let Some(p) = predicted else { return "No prediction was written down before this run.".into() };
    match guess {
        Guess::Number(_) => match (p - actual).abs() {
            0 => format!("You predicted {p}; your GPU gave {actual}: exactly right."),
            off => format!("You predicted {p}; your GPU gave {actual}: off by {off}."),
        },
        Guess::YesNo => {
            let (said, did) = (if p > 0 { "yes" } else { "no" }, actual > 0);
            let what = if did { format!("it did ({actual} times)") } else { "it did not".to_owned() };
            let right = if (p > 0) == did { "right" } else { "not this time" };
            format!("You said {said}; {what}: {right}.")
        }
    }
}

#[component]
pub fn Prediction(
    /// The question, asked before the run.
    #[prop(into)]
    question: Signal<String>,
    guess: Guess,
    /// What the GPU did, once a run has finished (a new value for every run).
    #[prop(into)]
    actual: Signal<Option<i64>>,
    /// The `data-testid` of the block; its input is `<id>-input`, its result `<id>-result`.
    test_id: &'static str,
) -> impl IntoView {
    let text = RwSignal::new(String::new());
    let guess_kind = guess.clone();
    // The guess as read from the field: a number in range (or yes/no), or a message.
    let parsed = Memo::new(move |_| {
        let t = text.get();
        let t = t.trim();
        match &guess_kind {
            _ if t.is_empty() => Ok(None),
            Guess::YesNo => Ok(Some(i64::from(t == "yes"))),
            Guess::Number(range) => match t.parse::<i64>() {
                Ok(n) if range.contains(&n) => Ok(Some(n)),
                _ => Err(format!("Write a whole number from {} to {}.", range.start(), range.end())),
            },
        }
    });
    // Taken when each result arrives.
    let compared = RwSignal::new(None::<String>);
    let guess_for_result = guess.clone();
    Effect::new(move |_| {
        if let Some(actual) = actual.get() {
            let predicted = parsed.get_untracked().ok().flatten();
            compared.set(Some(verdict(&guess_for_result, predicted, actual)));
        }
    });
    let input_id = format!("{test_id}-input");
    let field = match guess {
        Guess::Number(range) => view! {
            <input id=input_id.clone() type="number" inputmode="numeric" min=*range.start() max=*range.end()
                prop:value=move || text.get() on:input=move |e| text.set(event_target_value(&e))
                data-testid=input_id.clone() />
        }
        .into_any(),
        Guess::YesNo => view! {
            <select id=input_id.clone() on:change=move |e| text.set(event_target_value(&e)) data-testid=input_id.clone()>
                <option value="">"—"</option>
                <option value="yes">"yes"</option>
                <option value="no">"no"</option>
            </select>
        }
        .into_any(),
    };
    view! {
        <div class="prediction" data-testid=test_id>
            <label for=format!("{test_id}-input")>"Predict first: " {move || question.get()}</label>
            " " {field}
            {move || parsed.get().err().map(|why| view! { <span class="notice warn" role="alert">{why}</span> })}
            <p aria-live="polite" data-testid=format!("{test_id}-result")>{move || compared.get()}</p>
        </div>
    }
}
