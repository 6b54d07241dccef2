/**
 * Reads the errors of the Stainless-generated SDKs (Anthropic, OpenAI) into a provider-neutral `Failure`.
 * Both SDKs share the same error classes and fields, so one reader serves both.
 */
import type { Failure } from "./retry.js";

/** Provider error types that arrive without an HTTP status (an `error` event mid-stream). */
const STREAM_ERROR_STATUS: Record<string, number> = {
  overloaded_error: 529,
  api_error: 500,
  server_error: 500,
  rate_limit_error: 429,
  timeout_error: 504,
};

/** The classes every Stainless-generated SDK (Anthropic, OpenAI) exposes on its client. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

export function classifySdkError(error: unknown, sdk: SdkErrorClasses): Failure {
  if (error instanceof sdk.APIConnectionTimeoutError) return { kind: "timeout" };
  if (error instanceof sdk.APIConnectionError) return connectionFailure(error);
  if (error instanceof sdk.APIError) {
    const fields = error as Error & { status?: unknown; headers?: unknown; error?: unknown };
    const body = record(fields.error);
    const inner = record(body.error);
    const errorType = str(inner.type) ?? str(body.type);
    const detail = str(inner.message) ?? str(body.message);
    const headers = fields.headers instanceof Headers ? fields.headers : undefined;
    const status =
      typeof fields.status === "number" ? fields.status : (STREAM_ERROR_STATUS[errorType ?? ""] ?? 500);
    return {
      kind: "http",
      status,
      ...(errorType ? { errorType } : {}),
      ...(detail ? { detail } : {}),
      ...(headers ? { headers } : {}),
    };
  }
  // A socket that breaks mid-stream reaches us as fetch's own error, not wrapped by the SDK.
  if (errorCode(error)) return connectionFailure(error);
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "invalid_response", detail: message };
}

function connectionFailure(error: unknown): Failure {
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  return code ? { kind: "connection", code, detail } : { kind: "connection", detail };
}

/** Node's fetch buries the socket error code (ECONNREFUSED, UND_ERR_SOCKET …) a few causes deep. */
export function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
  const fromCause = errorCode(cause, depth + 1);
  if (fromCause) return fromCause;
  // localhost resolves to ::1 and 127.0.0.1; a refusal on both arrives as an AggregateError.
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = errorCode(inner, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
