/** TCO and drive-life planner (issue 6): public API of engine/src/plan. */
export * from './scenario.ts';
export * from './raid.ts';
export * from './sizing.ts';
export * from './life.ts';
export * from './result.ts';
export * from './plan.ts';
export * from './sensitivity.ts';
export * from './measured.ts';
export * from './template.ts';
export * from './catalog.ts';
export * from './recipe.ts';
export * from './generate.ts';
export * from './tornado.ts';
export * from './best-cache.ts';
export * from './provenance.ts';
export * from './verdict.ts';
export * from './cache-size.ts';
