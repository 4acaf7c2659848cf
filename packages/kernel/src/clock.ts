/** Time source passed to services so tests can move time without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
