export { AppError, isAppError, type FieldIssue } from './app-error.js';
export { ERROR_CODES, type ErrorCode } from './error-codes.js';
export { newId, randomToken } from './ids.js';
export { systemClock, sleep, type Clock } from './clock.js';
export { readConfig, ConfigError, type EnvSource } from './config.js';
export { runCliMain, wantsHelp } from './cli.js';
export { sharedEnvShape } from './shared-env.js';
export { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, tightenTree, usePrivateUmask } from './private-files.js';
export type { WriteAnswer, WriteOutcome } from './write-outcome.js';
