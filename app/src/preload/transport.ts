/** The preload's transport: the only place `ipcRenderer` is used. */
import { ipcRenderer } from 'electron';
import type { Channel, ReplyOf, RequestOf } from '../shared/contract.ts';
import type { Result } from '../shared/result.ts';

export function call<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Result<ReplyOf<C>>> {
  return ipcRenderer.invoke(channel, request) as Promise<Result<ReplyOf<C>>>;
}
