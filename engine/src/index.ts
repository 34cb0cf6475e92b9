/**
 * The engine: pure functions from a capture's interval records to every figure CacheProof prints
 * (interval metrics, window summaries, before/after benefit with its uncertainty, health, drift,
 * the report model, TCO and drive life in `./plan`) and the words that go with each figure, as
 * message keys with values (e.g. `latencyChange`, `bestCacheConfig`). Screens, exporters and the
 * CLI translate and draw them; they compute none.
 *
 * Figures that need every request of a block trace are not computed here: the probe's `sim/`
 * (miss-ratio curves, the cache prediction) and `latency/` (response-time percentiles from the
 * trace) crates (native/crates/) compute them and store them in the capture
 * (`meta.prediction`, `meta.trace_latency`); the engine only reads them
 * (benefit/prediction.ts, benefit/trace-latency.ts). Definitions: docs/metrics.md, "Where each
 * figure is computed".
 */
export * from './records/types.ts';
export * from './records/window.ts';
export * from './records/columns.ts';
export * from './records/source.ts';
export * from './records/engine.ts';
export * from './metrics/interval.ts';
export * from './metrics/quantile.ts';
export * from './metrics/series.ts';
export * from './metrics/buckets.ts';
export * from './verify/fio.ts';
export * from './metrics/summary.ts';
export * from './metrics/request-size.ts';
// Run plans and the live window, moved out of the renderer's screens (issue 38)
export * from './run/live-window.ts';
export * from './run/run-plan.ts';
export * from './run/trace-budget.ts';
export * from './run/opening.ts';
export * from './benefit/prng.ts';
export * from './benefit/bootstrap.ts';
export * from './benefit/windows.ts';
export * from './benefit/aggregate.ts';
export * from './benefit/figures.ts';
export * from './benefit/drift.ts';
export * from './benefit/health.ts';
export * from './benefit/errors.ts';
export * from './benefit/result.ts';
export * from './benefit/analyze.ts';
export * from './benefit/warnings.ts';
export * from './benefit/devices.ts';
export * from './benefit/profile.ts';
export * from './benefit/capacity.ts';
export * from './benefit/plausibility.ts';
export * from './benefit/hours.ts';
export * from './benefit/days.ts';
export * from './benefit/engine-stats.ts';
export * from './benefit/prediction.ts';
export * from './benefit/stored-prediction.ts';
export * from './benefit/what-if.ts';
export * from './benefit/trace-latency.ts';
export * from './benefit/fleet.ts';
export * from './benefit/fleet-aggregate.ts';
export * from './benefit/fleet-summary.ts';
export * from './benefit/workload-shape.ts';
export * from './metrics/finite.ts';
export * from './benefit/io-split.ts';
export * from './benefit/miss-ratio.ts';
// issue 38 (rendB): series summaries the screens print beside their charts
export * from './metrics/series-summary.ts';
