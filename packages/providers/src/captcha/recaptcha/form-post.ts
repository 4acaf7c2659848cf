/**
 * One form-encoded POST over node:http(s) with a keep-alive agent (kernel's `postText`). Used instead
 * of fetch on the hot path of every public submission: bench:intake measured fetch at ~0.7 ms of CPU
 * per call against ~0.15 ms for http.request on this machine (docs/benchmarks.md).
 */
import { HttpPostError, postText } from '@platform/kernel';

/** The verifier's view of a failed POST: a timeout, or anything else on the way (network). */
export { HttpPostError as FormPostError };

/** `url` may be a URL parsed once by the caller (the verifier does), to skip parsing it on every call. */
export function postForm(
  url: string | URL,
  form: string,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return postText(url, form, { contentType: 'application/x-www-form-urlencoded', timeoutMs });
}
