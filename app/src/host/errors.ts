import type { ErrorCode } from '../shared/contract.ts';

/** An expected failure raised inside the host; dispatch turns it into `{ ok: false, error }`. */
export class HostError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'HostError';
  }
}
