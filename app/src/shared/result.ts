import type { ErrorCode } from './contract.ts';

/** An expected failure, shown to people by `code` (translated), with an English `message` for logs. */
export interface AppError {
  code: ErrorCode;
  message: string;
}

/** Every reply of the contract: expected failures are values, never exceptions. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: { code, message } };
}
