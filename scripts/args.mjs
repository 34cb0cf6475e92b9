// The command line of a script or a bench, declared once (docs/ARCHITECTURE.md, process rules):
// node:util parseArgs with `strict: true` over one option table, each option with its type and
// default (and `value`, the name of a string option's value in the usage line when it has no
// default; `number: true` or `'positive'` for a number, converted unless `asText: true` keeps the
// text as given, e.g. a 64-bit seed). The usage line is made from the same
// table; `--help` prints it (exit 0); a bad option, a missing or bad value prints parseArgs'
// sentence and the usage line (exit 2).
import { parseArgs } from 'node:util';

/** `[--name DEFAULT]`, `[--name VALUE]` or `[--switch]`, in declaration order. */
function synopsis(name, o) {
  if (o.type === 'boolean') return `[--${name}]`;
  return `[--${name} ${o.default ?? o.value ?? 'VALUE'}]`;
}

/** The usage line of `command` with these options (and `[STEP…]`-like positionals when `positionals` names them). */
export function usageLine(command, options, positionals = null) {
  const parts = Object.entries(options).map(([name, o]) => synopsis(name, o));
  if (positionals !== null) parts.push(`[${positionals}…]`);
  return `Usage: ${command} ${parts.join(' ')}`;
}

/**
 * Parses `args` (default: this process's) against `options`; returns `{ values, positionals }` with
 * every number option converted (`Number`). `positionals`: the name of the positional arguments
 * allowed (null: none); `choices`, when given, the values they may take.
 *
 * @example
 * const { values } = commandLine('node bench/import/run.mjs', { mb: { type: 'string', default: '500', number: 'positive' } });
 * values.mb // 500, or `--mb 20` → 20
 */
export function commandLine(command, options, { positionals = null, choices = null, args = process.argv.slice(2) } = {}) {
  const usage = usageLine(command, options, positionals);
  const refuse = (sentence) => {
    process.stderr.write(`${command}: ${sentence}\n${usage} (--help: this line)\n`);
    process.exit(2);
  };
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: positionals !== null });
  } catch (err) {
    // parseArgs' first sentence names the option ("Unknown option '--x'", "Option '--runs <value>' argument missing")
    refuse(err.message.split(/\.(?:\s|$)|\n/)[0]);
  }
  const { help, ...values } = parsed.values;
  if (help === true) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  for (const [name, o] of Object.entries(options)) {
    if (o.number === undefined || values[name] === undefined) continue;
    const n = Number(values[name]);
    if (!Number.isFinite(n) || (o.number === 'positive' && n <= 0)) refuse(`--${name} needs ${o.number === 'positive' ? 'a positive' : 'a'} number (got '${values[name]}')`);
    if (o.asText !== true) values[name] = n;
  }
  const unknown = choices === null ? undefined : parsed.positionals.find((p) => !choices.includes(p));
  if (unknown !== undefined) refuse(`unknown ${positionals} '${unknown}' (one of ${choices.join(', ')})`);
  return { values, positionals: parsed.positionals };
}
