import { Registry } from '../registry.js';
import { accountModels } from './account.models.js';
import { baseModels } from './base.models.js';
import { crmModels } from './crm.models.js';
import { fsmModels } from './fsm.models.js';
import { geoModels } from './geo.models.js';
import { helpdeskModels } from './helpdesk.models.js';
import { introspectionModels } from './introspection.models.js';
import { paymentModels } from './payment.models.js';
import { pipelineModels } from './pipeline.models.js';
import { productModels } from './product.models.js';
import { purchaseModels } from './purchase.models.js';
import { saleModels } from './sale.models.js';

/** Every model of the embedded ERP. Add an area by adding its spec list here. */
export function defaultRegistry(): Registry {
  const r = new Registry();
  const areas = [baseModels, crmModels, helpdeskModels, productModels, accountModels, paymentModels, saleModels, purchaseModels, fsmModels];
  areas.push(geoModels, pipelineModels, introspectionModels);
  for (const spec of areas.flat()) r.define(spec);
  return r.finalize();
}
