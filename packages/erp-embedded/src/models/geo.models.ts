/**
 * Countries and their subdivisions (Odoo 15 `base`: `res.country`, `res.country.state`). Their rows
 * come from the `iso-3166` package (seed/countries.ts), not from a hand-typed list.
 */
import { f } from '../fields.js';
import type { ModelSpec } from '../registry.js';

export const geoModels: ModelSpec[] = [
  {
    name: 'res.country',
    description: 'Country',
    order: 'name',
    fields: {
      name: f.char('Country Name', { required: true }),
      code: f.char('Country Code', {
        help: 'The ISO country code in two chars. \nYou can use this field for quick search.',
      }),
      phone_code: f.integer('Country Calling Code'),
      currency_id: f.many2one('res.currency', 'Currency'),
      state_ids: f.one2many('res.country.state', 'country_id', 'States'),
    },
    // Odoo: `name_uniq` and `code_uniq` ("The code of the country must be unique !").
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS res_country_code_uniq ON $T (code)'],
  },
  {
    name: 'res.country.state',
    description: 'Country state',
    order: 'code',
    // Odoo 15 `res.country.state.name_get`: "Colorado (US)".
    displaySql: (a, schema) =>
      `${a}.name || ' (' || COALESCE((SELECT ${a}_cc.code FROM "${schema}"."res_country" ${a}_cc WHERE ${a}_cc.id = ${a}.country_id), '') || ')'`,
    fields: {
      country_id: f.many2one('res.country', 'Country', { required: true }),
      name: f.char('State Name', {
        required: true,
        help: 'Administrative divisions of a country. E.g. Fed. State, Departement, Canton',
      }),
      code: f.char('State Code', { required: true, help: 'The state code.' }),
    },
    // Odoo: `name_code_uniq` unique(country_id, code).
    constraints: ['CREATE UNIQUE INDEX IF NOT EXISTS res_country_state_name_code_uniq ON $T (country_id, code)'],
  },
];
