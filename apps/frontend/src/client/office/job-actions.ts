/**
 * Which office actions a job's stage allows, as the control plane's stage rules say
 * (features/jobs/job-stages.ts): done and cancelled are final; "Back to needs scheduling" is the move
 * to `new`, allowed from `scheduled` only. A button the server would refuse (409) is never offered.
 */
import { isOpenStage } from '@platform/contracts/job.js';

export type { StageKey } from '@platform/contracts/job.js';
export { isOpenStage };
export const canSchedule = (k: string): boolean => isOpenStage(k);
export const canUnschedule = (k: string): boolean => k === 'scheduled';
export const canAssign = (k: string): boolean => isOpenStage(k);
