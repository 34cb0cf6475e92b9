/** The browser host's client side of the contract (same-origin fetch, session cookie). */
import { apiFrom, type CacheProofApi } from '../shared/api.ts';
import { API_HEADER, API_PREFIX, type Channel, type ReplyOf, type RequestOf } from '../shared/contract.ts';
import type { Result } from '../shared/result.ts';

async function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Result<ReplyOf<C>>> {
  try {
    const res = await fetch(API_PREFIX + channel, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [API_HEADER]: '1' },
      body: JSON.stringify(request),
    });
    if (!res.ok && res.headers.get('content-type')?.startsWith('application/json') !== true) {
      return { ok: false, error: { code: 'network', message: `HTTP ${res.status}` } };
    }
    return (await res.json()) as Result<ReplyOf<C>>;
  } catch (err) {
    return { ok: false, error: { code: 'network', message: err instanceof Error ? err.message : String(err) } };
  }
}

export const httpApi: CacheProofApi = apiFrom(call);
