import { Registry } from '../registry.js';
import { baseModels } from './base.models.js';
import { crmModels } from './crm.models.js';
import { helpdeskModels } from './helpdesk.models.js';

/** Every model of the embedded ERP. Add an area by adding its spec list here. */
export function defaultRegistry(): Registry {
  const r = new Registry();
  for (const spec of [...baseModels, ...crmModels, ...helpdeskModels]) r.define(spec);
  return r.finalize();
}
