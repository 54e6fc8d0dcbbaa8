//! The lab's visibility scene: the reader is the scheduler *and* the memory. Each location is
//! drawn as its history of writes, in coherence order; each thread's view of it as a marker
//! under the write it has seen up to. The reader picks which thread steps and, for a load, which
//! write it reads — any its view allows.

use super::challenge::Challenge;
use super::visibility::replay;
use super::{Row, Scoped};
use crate::model::litmus::views::{self, Next};
use crate::model::litmus::{LitmusTest, Op, LOCATIONS};
use leptos::prelude::*;
use std::sync::Arc;

/// What the scene says of the runs the reader makes, from whichever verdicts the page has: the
/// lab's table, or a lesson's own reading of its few tests.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneVerdicts {
    /// Outcomes no interleaving reaches: ending in one, a thread read a stale write.
    pub weak: Vec<String>,
    /// Outcomes the scoped model allows that no choice here reaches.
    pub unreachable: Vec<String>,
    /// The challenge the scene sets, and whether the scoped model forbids its outcome.
    pub challenge: Option<(Challenge, bool)>,
}

impl SceneVerdicts {
    /// From the lab's table of outcomes.
    pub fn of_rows(test: &LitmusTest, rows: &[Row]) -> SceneVerdicts {
        let unreachable = match views::reachable(test) {
            Some(reached) => rows.iter().filter(|r| r.scoped_allowed() == Some(true) && !reached.contains_key(&r.outcome)).map(|r| r.name.clone()).collect(),
            None => Vec::new(),
        };
        let challenge = Challenge::of(test).and_then(|c| {
            let row = rows.iter().find(|r| r.name == c.outcome)?;
            Some((c, matches!(row.scoped, Some(Scoped::Forbidden(_)))))
        });
        SceneVerdicts { weak: rows.iter().filter(|r| r.sc.is_none()).map(|r| r.name.clone()).collect(), unreachable, challenge }
    }

    /// From the visibility model alone, for a test whose every allowed outcome it reaches (as
    /// for message passing, whose weak outcome needs no write made after its read): what it
    /// reaches is what the scoped model allows, and what sequential consistency does not reach
    /// is weak.
    pub fn of_views(test: &LitmusTest) -> SceneVerdicts {
        let reached = views::reachable(test).unwrap_or_default();
        let sc = crate::model::litmus::sc::reachable(test);
        let weak = reached.keys().filter(|o| !sc.contains_key(*o)).map(|o| test.name(o)).collect();
        let challenge = Challenge::of(test).map(|c| (c, !reached.keys().any(|o| test.name(o) == c.outcome)));
        SceneVerdicts { weak, unreachable: Vec::new(), challenge }
    }
}

/// `T0·2` (thread 0's second statement) or `initial`: who wrote a history's entry.
fn writer(message: &views::Message) -> String {
    match message.by {
        None => "initial".to_owned(),
        Some((t, i)) => format!("T{t}·{}", i + 1),
    }
}

#[component]
pub fn VisibilityScene(test: LitmusTest, verdicts: SceneVerdicts, choices: RwSignal<Vec<(usize, usize)>>) -> impl IntoView {
    let test = Arc::new(test);
    let verdicts = Arc::new(verdicts);
    let state = {
        let test = Arc::clone(&test);
        Memo::new(move |_| choices.with(|c| replay(&test, c).0))
    };
    let used: Vec<usize> = (0..LOCATIONS.len()).filter(|&l| test.threads.iter().flatten().any(|op| op.loc() == Some(l))).collect();
    let threads = {
        let test = Arc::clone(&test);
        move || {
            let s = state.get();
            (0..test.threads.len())
                .map(|t| {
                    let statements = test.threads[t]
                        .iter()
                        .enumerate()
                        .map(|(i, op)| {
                            let class = if i < s.pcs[t] { "done" } else if i == s.pcs[t] { "next" } else { "" };
                            view! { <li class=class aria-current=(i == s.pcs[t]).then_some("step")><code>{super::describe(&test, *op)}</code></li> }
                        })
                        .collect_view();
                    let actions = match s.next(&test, t) {
                        Next::Blocked if s.waiting[t] => view! { <p class="muted">"waiting at the barrier"</p> }.into_any(),
                        Next::Blocked => view! { <p class="muted">"finished"</p> }.into_any(),
                        Next::Go => {
                            let what = super::describe(&test, test.threads[t][s.pcs[t]]);
                            view! {
                                <button type="button" class="small" data-testid=format!("vis-step-{t}") on:click=move |_| choices.update(|c| c.push((t, 0)))>
                                    {format!("T{t}: {what}")}
                                </button>
                            }
                            .into_any()
                        }
                        Next::Read { loc, from } => {
                            let history = &s.histories[loc];
                            let latest = history.len() - 1;
                            from.into_iter()
                                .map(|i| {
                                    let m = &history[i];
                                    let stale = if i < latest { " (stale)" } else { "" };
                                    let label = format!("T{t} reads {} = {} from {}{stale}", LOCATIONS[loc], m.value, writer(m));
                                    view! {
                                        <button type="button" class="small" class:stale=i < latest data-testid=format!("vis-read-{t}-{i}")
                                            on:click=move |_| choices.update(|c| c.push((t, i)))>{label}</button>
                                    }
                                })
                                .collect_view()
                                .into_any()
                        }
                    };
                    let registers: Vec<String> = test
                        .threads[t]
                        .iter()
                        .filter_map(|op| match *op {
                            Op::Load { reg, .. } | Op::Rmw { reg, .. } => Some(reg),
                            _ => None,
                        })
                        .filter(|&reg| test.threads[t].iter().take(s.pcs[t]).any(|op| matches!(*op, Op::Load { reg: r, .. } | Op::Rmw { reg: r, .. } if r == reg)))
                        .map(|reg| format!("{} = {}", test.registers[reg], s.registers[reg]))
                        .collect();
                    let place = format!("T{t} · workgroup {}", test.groups[t]);
                    view! {
                        <div class="vis-thread" data-testid=format!("vis-thread-{t}")>
                            <h3>{place}</h3>
                            <ol class="vis-statements">{statements}</ol>
                            <p class="vis-registers">{registers.join(", ")}</p>
                            <div class="vis-actions">{actions}</div>
                        </div>
                    }
                })
                .collect_view()
        }
    };
    let memory = {
        let test = Arc::clone(&test);
        move || {
            let s = state.get();
            used.iter()
                .map(|&l| {
                    let cells = s.histories[l]
                        .iter()
                        .enumerate()
                        .map(|(i, m)| {
                            let seen: Vec<String> = (0..test.threads.len()).filter(|&t| s.views[t][l] == i).map(|t| format!("T{t}")).collect();
                            let carries = m.carries.map(|(_, scope)| format!("carries T{}'s view · {}", m.by.map_or(0, |b| b.0), scope.name()));
                            let label = format!(
                                "{} write {}: {} by {}{}; seen up to here by {}",
                                LOCATIONS[l],
                                i,
                                m.value,
                                writer(m),
                                carries.as_ref().map(|c| format!(", {c}")).unwrap_or_default(),
                                if seen.is_empty() { "no thread".to_owned() } else { seen.join(", ") }
                            );
                            view! {
                                <li class="vis-write" class:released=m.carries.is_some() data-testid=format!("vis-write-{}-{i}", LOCATIONS[l]) aria-label=label>
                                    <span class="vis-value">{m.value.to_string()}</span>
                                    <span class="vis-by">{writer(m)}</span>
                                    {carries.map(|c| view! { <span class="vis-carries">{c}</span> })}
                                    <span class="vis-views">{seen.into_iter().map(|t| view! { <span class="vis-view" data-thread=t.clone()>{format!("▲ {t}")}</span> }).collect_view()}</span>
                                </li>
                            }
                        })
                        .collect_view();
                    view! {
                        <div class="vis-location">
                            <span class="vis-name">{LOCATIONS[l]}</span>
                            <ol class="vis-history" data-testid=format!("vis-history-{}", LOCATIONS[l])>{cells}</ol>
                        </div>
                    }
                })
                .collect_view()
        }
    };
    // What the last step did, in words: which write a load read, and whose view came with it.
    let narration = {
        let test = Arc::clone(&test);
        move || {
            let c = choices.get();
            let &(t, read) = c.last()?;
            let before = replay(&test, &c[..c.len() - 1]).0;
            let after = state.get();
            let op = *test.threads.get(t)?.get(before.pcs[t])?;
            let mut said = format!("T{t}: {}", super::describe(&test, op));
            if let Op::Load { loc, .. } = op {
                let m = &before.histories[loc][read];
                let stale = if read + 1 < before.histories[loc].len() { ", a stale write: a newer one exists" } else { "" };
                said = format!("T{t} read {} = {} from {}{stale}", LOCATIONS[loc], m.value, writer(m));
            }
            let learned: Vec<String> = (0..LOCATIONS.len())
                .filter(|&l| after.views[t][l] > before.views[t][l] && op.loc() != Some(l))
                .map(|l| format!("{} up to write {}", LOCATIONS[l], after.views[t][l]))
                .collect();
            if !learned.is_empty() {
                said.push_str(&format!("; its view moved on: it now sees {}", learned.join(", ")));
            }
            Some(view! { <p class="vis-narration" data-testid="vis-narration" aria-live="polite">{said}</p> })
        }
    };
    let status = {
        let (test, verdicts) = (Arc::clone(&test), Arc::clone(&verdicts));
        move || {
            let s = state.get();
            if !s.finished(&test) {
                return view! { <p class="vis-status" data-testid="vis-status">"Pick a step. A load may read any write at or after its thread's marker."</p> }.into_any();
            }
            let name = test.name(&s.outcome(&test));
            let weak = verdicts.weak.contains(&name);
            let said = if weak { "no interleaving reaches it: a thread read a stale write" } else { "an interleaving reaches it too" };
            view! { <p class="vis-status" data-testid="vis-status" data-outcome=name.clone() data-weak=weak.to_string()>{format!("Finished: {name} — {said}. The scoped model allows it.")}</p> }.into_any()
        }
    };
    let challenge = {
        let test = Arc::clone(&test);
        let found = verdicts.challenge;
        move || {
            let (c, forbidden) = found?;
            let s = state.get();
            let reached = s.finished(&test) && test.name(&s.outcome(&test)) == c.outcome;
            let first = if forbidden {
                c.forbidden_here.to_owned()
            } else if reached {
                c.done.to_owned()
            } else {
                c.make.to_owned()
            };
            let second = if forbidden { format!("✓ The scoped model forbids {} with this test.", c.outcome) } else { c.then.to_owned() };
            Some(view! {
                <ol class="vis-challenge" data-testid="vis-challenge" data-shape=c.shape data-reached=reached.to_string() data-forbidden=forbidden.to_string()>
                    <li>{first}</li>
                    <li>{second}</li>
                </ol>
            })
        }
    };
    let unreachable = (!verdicts.unreachable.is_empty()).then(|| {
        let text = format!(
            "The scoped model also allows {}, which no choice here reaches: it needs a load to read a write its thread's partner has not made yet (as in load buffering).",
            verdicts.unreachable.join(", ")
        );
        view! { <p class="muted" data-testid="vis-unreachable">{text}</p> }
    });
    view! {
        {challenge}
        <div class="vis-scene">
            <div class="vis-memory" data-testid="vis-memory">{memory}</div>
            <div class="vis-threads">{threads}</div>
        </div>
        {narration}
        {status}
        <div class="vis-controls">
            <button type="button" class="small" data-testid="vis-undo" prop:disabled=move || choices.with(Vec::is_empty) on:click=move |_| choices.update(|c| { c.pop(); })>"Undo"</button>
            <button type="button" class="small" data-testid="vis-restart" prop:disabled=move || choices.with(Vec::is_empty) on:click=move |_| choices.set(Vec::new())>"Start again"</button>
        </div>
        {unreachable}
    }
}
