/**
 * The Electron transport of the contract: the only place `ipcMain` is used. Every call's
 * sender frame is checked to be CacheProof's own renderer before it reaches `dispatch`.
 */
import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { CHANNELS } from '../shared/contract.ts';
import type { Dispatch } from '../host/dispatch.ts';
import { fail } from '../shared/result.ts';
import { isAppUrl } from './window.ts';

export function registerContract(dispatch: Dispatch, rendererIndexUrl: string): void {
  for (const channel of Object.keys(CHANNELS)) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, payload: unknown) => {
      const frameUrl = event.senderFrame?.url ?? '';
      if (!isAppUrl(frameUrl, rendererIndexUrl)) return fail('bad-request', 'Refused a call from a frame that is not CacheProof.');
      return dispatch(channel, payload);
    });
  }
}
