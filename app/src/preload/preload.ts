/**
 * Exposes CacheProof's task-shaped API on `window.cacheproof` — never a generic send/invoke.
 */
import { contextBridge } from 'electron';
import { apiFrom } from '../shared/api.ts';
import { call } from './transport.ts';

contextBridge.exposeInMainWorld('cacheproof', apiFrom(call));
