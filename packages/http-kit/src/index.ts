export { ERROR_STATUS, problemType } from './error-status.map.js';
export { type Problem, problemOpenApiSchema, toProblem } from './problem.js';
export { registerProblemHandlers, sendProblem, asAppError } from './error-handler.plugin.js';
export { loggerOptions, createLogger, genRequestId, REDACT_PATHS, redactPathTokens } from './logger.js';
export { parseOrThrow, zodIssuesToFields } from './validate.js';
export {
  GRACEFUL_FASTIFY_OPTIONS,
  listenAndTrack,
  type ListenOptions,
  type RunningServer,
} from './server-lifecycle.js';
export { runService } from './run-service.js';
export { createFastify, type CreateFastifyOptions } from './create-fastify.js';
export { parseTrustProxy } from './trust-proxy.js';
export {
  type BuiltService,
  platformHost,
  type PlatformHostOptions,
  type RunningHttpService,
  startHttpService,
} from './start-http-service.js';
export { assertPortsFree, namedPortError, type NamedPort, onNamedPort } from './named-ports.js';
export { RateLimiter, type Limit } from './rate-limit/rate-limiter.js';
export { pruneIdleBuckets } from './rate-limit/rate-limit.repo.js';
export {
  registerInputHandling,
  acceptRawBodies,
  charsetJsonParser,
  problemFrameworkErrors,
  type InputHandlingOptions,
} from './input/input-handling.js';
export { findBadString, badStringRule, assertCleanStrings, assertCleanJson } from './input/string-guard.js';
export { decodeBody, charsetOf } from './input/body-charset.js';
export { problemClientErrorHandler } from './input/client-errors.js';
export * from './metrics/index.js';
export { sendAnswer, statusOfOutcome } from './answer/send-answer.js';
export { addressRanges } from './address-ranges.js';
