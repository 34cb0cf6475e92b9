/** Text keys of the report's cache-engine statistics (engine-section.ts); part of REPORT_KEYS (keys.ts). */
export const ENGINE_REPORT_KEYS = [
  'eng.title', 'eng.def', 'eng.adapter', 'eng.sharesTitle', 'eng.c.kind', 'eng.c.engine', 'eng.c.counters', 'eng.c.diff', 'eng.c.hits',
  'eng.c.verdict', 'eng.kind.reads', 'eng.kind.writes', 'eng.kind.all', 'eng.verdict.within', 'eng.verdict.exceeds', 'eng.verdict.na',
  'eng.hits', 'eng.points', 'eng.notesTitle', 'eng.note.partial-misses', 'eng.note.bypassed-io', 'eng.note.bios-not-requests',
  'eng.note.no-read-write-split', 'eng.note.write-hits-reach-backing', 'eng.note.measure-window-only',
  'eng.countersTitle', 'eng.countersNone', 'eng.c.name', 'eng.c.value', 'eng.c.unit', 'eng.c.window', 'eng.c.method',
  'eng.method.difference', 'eng.method.last', 'eng.actionsTitle', 'eng.actionsNone', 'eng.c.time', 'eng.c.action', 'eng.c.step',
  'eng.c.result', 'eng.result.ok', 'eng.result.failed', 'eng.result.failedNoExit', 'eng.action.enable', 'eng.action.disable',
  'eng.action.restore', 'eng.fig.engineShare', 'eng.fig.countersShare',
  'why.engine-has-no-counters', 'why.too-few-engine-samples', 'why.engine-counter-reset', 'why.engine-no-io', 'why.counters-no-share',
  'why.no-adapter', 'why.no-exit-status', 'why.mode-unknown',
] as const;
