/**
 * Sizes as a tape measure reads them, typed as whole inches plus an eighths list so a size is always
 * exact to 1/8": the quote builder's and the field app's measuring share this one parsing.
 */
export const EIGHTHS = ['0', '1/8', '1/4', '3/8', '1/2', '5/8', '3/4', '7/8'];

/** The eighths list's options, `selected` (0-7) chosen. */
export const eighthOptions = (selected: number): string =>
  EIGHTHS.map((e, n) => `<option value="${n}" ${n === selected ? 'selected' : ''}>${e}</option>`).join('');

/** Whole inches plus eighths, or NaN when the inches are not a whole number (0 when empty). */
export const measure = (whole: string, eighths: number): number =>
  /^\d+$/.test(whole.trim()) ? Number(whole) + eighths / 8 : whole.trim() ? NaN : 0;

/** A size back into the two inputs: 36.375 → { whole: '36', eighths: 3 }. */
export function splitInches(x: number): { whole: string; eighths: number } {
  const whole = Math.floor(x);
  return { whole: String(whole), eighths: Math.round((x - whole) * 8) % 8 };
}
