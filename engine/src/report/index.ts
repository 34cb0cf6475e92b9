/** The report model (issue 7): public API of engine/src/report. */
export * from './keys.ts';
export * from './types.ts';
export * from './series.ts';
export * from './intervals.ts';
export * from './build.ts';
export * from './short.ts';
export * from './engine-keys.ts';
export * from './shape-keys.ts';
export * from './shape-section.ts';
export * from './latency-change.ts';
export * from './benefit-words.ts';
export * from './per-work-words.ts';
export * from './colors.ts';
export * from './profile-keys.ts';
export * from './profile-report.ts';
export * from './fleet-report.ts';
export * from './fleet-chart.ts';
export { miniatureMsg } from './prediction-section.ts';
