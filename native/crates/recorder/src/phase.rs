//! The plan's phases and how a recording walks through them: a pure function of the phase,
//! the time recorded in it, the plan and the switch mark, applied at every sample.
//!
//! baseline (its planned length of recorded time) → switch (waits for `mark CAPTURE switch`) →
//! warmup → measure → done. A switch marked during the baseline ends the baseline at the mark
//! (`early-switch`); a warm-up of 0 goes straight to the measure window; a plan with no warm-up
//! and no measure ends after the baseline. Without a plan the recording stays in the baseline.

use crate::delta;
use crate::plan::PlanMeta;

/// A phase of the plan, as stored in `recorder.phase` and `phases.name`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Baseline,
    Switch,
    Warmup,
    Measure,
    Done,
}

impl Phase {
    /// The phases in the order a plan runs them (`done` is not one).
    pub const ORDER: [Phase; 4] = [
        Phase::Baseline,
        Phase::Switch,
        Phase::Warmup,
        Phase::Measure,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Baseline => "baseline",
            Phase::Switch => "switch",
            Phase::Warmup => "warmup",
            Phase::Measure => "measure",
            Phase::Done => "done",
        }
    }

    /// A stored name; `None` for anything else.
    pub fn parse(s: &str) -> Option<Phase> {
        [
            Phase::Baseline,
            Phase::Switch,
            Phase::Warmup,
            Phase::Measure,
            Phase::Done,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }

    /// Planned length in seconds (0 for the switch, which lasts until the mark, and for done).
    pub fn planned_s(self, plan: &PlanMeta) -> f64 {
        match self {
            Phase::Baseline => plan.baseline_s,
            Phase::Warmup => plan.warmup_s,
            Phase::Measure => plan.measure_s,
            Phase::Switch | Phase::Done => 0.0,
        }
    }
}

/// A change to the `phases` table.
#[derive(Debug, Clone, PartialEq)]
pub enum PhaseRow {
    /// Close the open row of the phase at `utc_ms`.
    End(Phase, i64),
    /// Open a row at `utc_ms` with its planned length in seconds.
    Start(Phase, i64, f64),
    /// The switch: a row that starts and ends at the mark's `utc_ms`.
    Switch(i64),
}

/// What a sample does to the phase.
#[derive(Debug, Clone, PartialEq)]
pub struct Transition {
    /// The phase after the sample (`Done`: the recording ends with this sample).
    pub phase: Phase,
    /// Changes to the `phases` table, in order.
    pub rows: Vec<PhaseRow>,
    /// The id of the switch mark this sample used (not used again after a resume).
    pub consumed_mark: Option<i64>,
    /// The switch was marked during the baseline, at this time: warning `early-switch`.
    pub early_switch_at: Option<i64>,
    /// The phase changed: the time recorded in it starts again from 0.
    pub restart: bool,
}

/// Whether [`transition`] reads the switch mark from `phase` under `plan`: only a plan's
/// baseline and switch end at a mark (without a plan a mark is only a mark). The recorder asks
/// the capture for the mark only then; any other time the answer would change nothing.
pub fn uses_mark(phase: Phase, plan: Option<&PlanMeta>) -> bool {
    plan.is_some() && matches!(phase, Phase::Baseline | Phase::Switch)
}

/// The phase after a sample taken at `now_utc_ms`: `phase` before it, `elapsed_ms` recorded in
/// that phase (this sample's interval included), the plan, and the first switch mark not used
/// yet as (id, utc_ms).
pub fn transition(
    phase: Phase,
    elapsed_ms: f64,
    plan: Option<&PlanMeta>,
    mark: Option<(i64, i64)>,
    now_utc_ms: i64,
) -> Transition {
    let mut t = Transition {
        phase,
        rows: Vec::new(),
        consumed_mark: None,
        early_switch_at: None,
        restart: false,
    };
    // Without a plan a switch mark is only a mark: there is no warm-up to start.
    let Some(p) = plan else { return t };
    if phase == Phase::Done {
        t.restart = true;
        return t;
    }
    if let Some((id, at)) = mark.filter(|_| matches!(phase, Phase::Baseline | Phase::Switch)) {
        t.consumed_mark = Some(id);
        if phase == Phase::Baseline {
            t.rows.push(PhaseRow::End(Phase::Baseline, at));
            t.early_switch_at = Some(at);
        }
        t.rows.push(PhaseRow::Switch(at));
        t.rows.push(PhaseRow::Start(Phase::Warmup, at, p.warmup_s));
        t.phase = Phase::Warmup;
        if p.warmup_s <= 0.0 {
            t.rows.push(PhaseRow::End(Phase::Warmup, at));
            t.rows
                .push(PhaseRow::Start(Phase::Measure, at, p.measure_s));
            t.phase = Phase::Measure;
        }
        t.restart = true;
        return t;
    }
    if phase == Phase::Switch || elapsed_ms < phase.planned_s(p) * 1000.0 {
        return t;
    }
    t.rows.push(PhaseRow::End(phase, now_utc_ms));
    t.phase = match phase {
        Phase::Baseline if p.warmup_s + p.measure_s > 0.0 => Phase::Switch,
        Phase::Warmup => {
            t.rows
                .push(PhaseRow::Start(Phase::Measure, now_utc_ms, p.measure_s));
            Phase::Measure
        }
        _ => Phase::Done,
    };
    t.restart = true;
    t
}

/// Milliseconds of an interval that count as recorded time in the phase: the monotonic time
/// between two samples of the same boot, unless it is a gap (the recorder was not running).
pub fn counted_ms(prev: (u64, &str), cur: (u64, &str), interval_ms: u64) -> f64 {
    let dt = cur.0.saturating_sub(prev.0) as f64 / 1e6;
    if prev.1 == cur.1 && dt <= delta::GAP_FACTOR * interval_ms as f64 {
        dt
    } else {
        0.0
    }
}

fn planned(plan: &Option<PlanMeta>, phase: &str) -> Option<f64> {
    let p = plan.as_ref()?;
    Some(Phase::parse(phase).map_or(0.0, |ph| ph.planned_s(p)))
}

/// Percent done and seconds left of a plan, from the current phase and its elapsed time.
pub fn progress(
    plan: &Option<PlanMeta>,
    phase: &str,
    elapsed_s: f64,
    done: bool,
) -> (Option<f64>, Option<f64>) {
    let Some(p) = plan else { return (None, None) };
    let total = p.baseline_s + p.warmup_s + p.measure_s;
    if done {
        return (Some(100.0), Some(0.0));
    }
    let mut before = 0.0;
    for ph in Phase::ORDER {
        if ph.as_str() == phase {
            break;
        }
        before += ph.planned_s(p);
    }
    let cur = elapsed_s.min(planned(plan, phase).unwrap_or(0.0));
    let doneness = before + cur;
    let pct = if total > 0.0 {
        doneness / total * 100.0
    } else {
        100.0
    };
    let eta = if phase == "switch" {
        None
    } else {
        Some((total - doneness).max(0.0))
    };
    (Some(pct), eta)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use Phase::*;

    #[test]
    fn a_mark_changes_nothing_where_it_is_not_used() {
        let p = plan(10.0, 5.0, 20.0);
        for phase in [Baseline, Switch, Warmup, Measure, Done] {
            for plan in [None, Some(&p)] {
                for elapsed in [0.0, 7_000.0, 60_000.0] {
                    let without = transition(phase, elapsed, plan, None, 1_000);
                    let with = transition(phase, elapsed, plan, Some((3, 900)), 1_000);
                    assert_eq!(
                        with == without,
                        !uses_mark(phase, plan),
                        "{phase:?} {plan:?} {elapsed}"
                    );
                }
            }
        }
    }

    fn plan(b: f64, w: f64, m: f64) -> PlanMeta {
        PlanMeta {
            baseline_s: b,
            warmup_s: w,
            measure_s: m,
            switch: "manual".into(),
        }
    }

    fn stays(t: &Transition, phase: Phase) {
        assert_eq!(t.phase, phase);
        assert!(t.rows.is_empty() && !t.restart && t.consumed_mark.is_none());
        assert!(t.early_switch_at.is_none());
    }

    #[test]
    fn names_round_trip() {
        for p in [Baseline, Switch, Warmup, Measure, Done] {
            assert_eq!(Phase::parse(p.as_str()), Some(p));
        }
        assert_eq!(Phase::parse("cooldown"), None);
    }

    #[test]
    fn without_a_plan_nothing_changes_even_with_a_mark() {
        for p in [Baseline, Switch, Warmup, Measure] {
            stays(&transition(p, 1e12, None, Some((1, 5)), 9), p);
        }
    }

    #[test]
    fn baseline_runs_its_planned_time_then_waits_for_the_switch() {
        let pl = plan(10.0, 5.0, 20.0);
        stays(
            &transition(Baseline, 9_999.0, Some(&pl), None, 100),
            Baseline,
        );
        let t = transition(Baseline, 10_000.0, Some(&pl), None, 100);
        assert_eq!(t.phase, Switch);
        assert_eq!(t.rows, vec![PhaseRow::End(Baseline, 100)]);
        assert!(t.restart && t.consumed_mark.is_none());
    }

    #[test]
    fn baseline_alone_ends_the_plan() {
        let t = transition(Baseline, 10_000.0, Some(&plan(10.0, 0.0, 0.0)), None, 7);
        assert_eq!(t.phase, Done);
        assert_eq!(t.rows, vec![PhaseRow::End(Baseline, 7)]);
    }

    #[test]
    fn switch_waits_for_the_mark_however_long() {
        let pl = plan(10.0, 5.0, 20.0);
        stays(&transition(Switch, 1e12, Some(&pl), None, 100), Switch);
        let t = transition(Switch, 1e12, Some(&pl), Some((4, 90)), 100);
        assert_eq!(t.phase, Warmup);
        assert_eq!(
            t.rows,
            vec![PhaseRow::Switch(90), PhaseRow::Start(Warmup, 90, 5.0)]
        );
        assert_eq!(t.consumed_mark, Some(4));
        assert_eq!(t.early_switch_at, None);
        assert!(t.restart);
    }

    #[test]
    fn a_mark_during_the_baseline_ends_it_at_the_mark() {
        let t = transition(
            Baseline,
            3_000.0,
            Some(&plan(10.0, 5.0, 20.0)),
            Some((2, 50)),
            60,
        );
        assert_eq!(t.phase, Warmup);
        assert_eq!(
            t.rows,
            vec![
                PhaseRow::End(Baseline, 50),
                PhaseRow::Switch(50),
                PhaseRow::Start(Warmup, 50, 5.0)
            ]
        );
        assert_eq!((t.consumed_mark, t.early_switch_at), (Some(2), Some(50)));
    }

    #[test]
    fn no_warmup_goes_straight_to_the_measure() {
        let t = transition(Switch, 0.0, Some(&plan(10.0, 0.0, 20.0)), Some((1, 70)), 80);
        assert_eq!(t.phase, Measure);
        assert_eq!(
            t.rows,
            vec![
                PhaseRow::Switch(70),
                PhaseRow::Start(Warmup, 70, 0.0),
                PhaseRow::End(Warmup, 70),
                PhaseRow::Start(Measure, 70, 20.0)
            ]
        );
    }

    #[test]
    fn warmup_then_measure_then_done() {
        let pl = plan(10.0, 5.0, 20.0);
        stays(&transition(Warmup, 4_999.0, Some(&pl), None, 1), Warmup);
        let t = transition(Warmup, 5_000.0, Some(&pl), None, 200);
        assert_eq!(t.phase, Measure);
        assert_eq!(
            t.rows,
            vec![
                PhaseRow::End(Warmup, 200),
                PhaseRow::Start(Measure, 200, 20.0)
            ]
        );
        stays(&transition(Measure, 19_999.0, Some(&pl), None, 1), Measure);
        let t = transition(Measure, 20_000.0, Some(&pl), None, 300);
        assert_eq!(t.phase, Done);
        assert_eq!(t.rows, vec![PhaseRow::End(Measure, 300)]);
    }

    #[test]
    fn a_late_mark_is_left_for_later_and_time_still_counts() {
        // A mark after the switch was used (warm-up, measure) is not consumed.
        let pl = plan(10.0, 5.0, 20.0);
        stays(&transition(Warmup, 1.0, Some(&pl), Some((9, 5)), 6), Warmup);
        let t = transition(Measure, 20_000.0, Some(&pl), Some((9, 5)), 6);
        assert_eq!((t.phase, t.consumed_mark), (Done, None));
    }

    #[test]
    fn a_capture_left_in_done_ends_at_its_first_sample() {
        let t = transition(Done, 0.0, Some(&plan(10.0, 5.0, 20.0)), None, 1);
        assert_eq!(t.phase, Done);
        assert!(t.rows.is_empty());
    }

    #[test]
    fn recorded_time_skips_gaps_and_reboots() {
        assert_eq!(counted_ms((0, "a"), (1_000_000_000, "a"), 1000), 1000.0);
        assert_eq!(counted_ms((0, "a"), (3_000_000_000, "a"), 1000), 3000.0);
        assert_eq!(counted_ms((0, "a"), (3_000_000_001, "a"), 1000), 0.0);
        assert_eq!(counted_ms((0, "a"), (1_000_000_000, "b"), 1000), 0.0);
    }

    #[test]
    fn progress_and_eta() {
        let pl = Some(plan(10.0, 5.0, 25.0));
        assert_eq!(progress(&None, "baseline", 1.0, false), (None, None));
        assert_eq!(
            progress(&pl, "baseline", 4.0, false),
            (Some(10.0), Some(36.0))
        );
        assert_eq!(progress(&pl, "switch", 99.0, false), (Some(25.0), None));
        assert_eq!(
            progress(&pl, "warmup", 99.0, false),
            (Some(37.5), Some(25.0))
        );
        assert_eq!(
            progress(&pl, "measure", 5.0, false),
            (Some(50.0), Some(20.0))
        );
        assert_eq!(
            progress(&pl, "measure", 5.0, true),
            (Some(100.0), Some(0.0))
        );
    }
}
