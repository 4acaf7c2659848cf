import { describe, expect, it } from 'vitest';

import { measure, splitInches } from './inch-input.js';

describe('inch input', () => {
  it('reads whole inches plus eighths, and refuses a fraction typed into the inches', () => {
    expect(measure('36', 3)).toBe(36.375);
    expect(measure(' 48 ', 0)).toBe(48);
    expect(measure('', 0)).toBe(0);
    expect(measure('36.5', 0)).toBeNaN();
  });

  it('splits a size back into the two inputs', () => {
    expect(splitInches(36.375)).toEqual({ whole: '36', eighths: 3 });
    expect(splitInches(130)).toEqual({ whole: '130', eighths: 0 });
  });
});
