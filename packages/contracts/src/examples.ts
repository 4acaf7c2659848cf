/**
 * Example bodies of the office API (POST /sales/quotes, POST /jobs), as the docs show them and as
 * tests send them: one window, priced by every tenant's default grids.
 */

/** One quote line: a 36 × 36 in white roller shade, inside mount, in the den. */
export const DEN_ROLLER_SHADE = {
  product_code: 'roller-shade',
  room: 'Den',
  width_in: 36,
  drop_in: 36,
  mount: 'inside',
  colour: 'White',
  options: [] as string[],
};

/** A POST /sales/quotes body of that one line, for a customer given by details or by ERP partner id. */
export const oneWindowQuote = (who: { customer: Record<string, string> } | { partner_id: number | string }) => ({
  ...who,
  lines: [DEN_ROLLER_SHADE],
});

/** One window of a POST /jobs body. */
export const DEN_JOB_WINDOW = { room: 'Den', product: 'Roller shade', width_in: 30, drop_in: 40, mount: 'inside' };
