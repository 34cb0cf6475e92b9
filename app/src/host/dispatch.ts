/**
 * The host side of the contract: validates every request against its schema, runs the
 * handler, turns expected failures into values and validates the reply. Both transports
 * (Electron IPC and the browser host) call only `dispatch`.
 */
import { CHANNELS, isChannel, type Channel, type ReplyOf, type RequestOf } from '../shared/contract.ts';
import { fail, ok, type Result } from '../shared/result.ts';
import { HostError } from './errors.ts';

export type Handlers = { [C in Channel]: (request: RequestOf<C>) => Promise<ReplyOf<C>> };

export type Dispatch = (channel: string, payload: unknown) => Promise<Result<unknown>>;

/** One handler per process for bugs: logged once, reported to the UI as `internal`. */
export type BugReporter = (channel: string, err: unknown) => void;

export function createDispatch(handlers: Handlers, reportBug: BugReporter): Dispatch {
  return async (channel, payload) => {
    if (!isChannel(channel)) return fail('unknown-channel', `There is no channel named "${channel.slice(0, 64)}".`);
    const spec = CHANNELS[channel];
    const parsed = spec.request.safeParse(payload ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'request';
      return fail('bad-request', `Invalid ${channel} request: ${where}: ${issue?.message ?? 'invalid'}.`);
    }
    try {
      const handler = handlers[channel] as (req: unknown) => Promise<unknown>;
      const value = await handler(parsed.data);
      // a turn of the event loop before checking a reply (a multi-MB analysis view takes tens of
      // ms to check): calls that arrived meanwhile (app.info) are answered first
      await new Promise<void>((resolve) => setImmediate(resolve));
      const checked = spec.reply.safeParse(value);
      if (!checked.success) {
        reportBug(channel, checked.error);
        return fail('internal', `The host produced an invalid ${channel} reply.`);
      }
      return ok(checked.data);
    } catch (err) {
      if (err instanceof HostError) return fail(err.code, err.message);
      reportBug(channel, err);
      return fail('internal', 'An internal error occurred; it has been logged.');
    }
  };
}
