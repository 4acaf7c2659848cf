import { type ModelExtension, type ModelSpec, Registry } from '../registry.js';
import { accountModels } from './account.models.js';
import { baseModels } from './base.models.js';
import { crmModels } from './crm.models.js';
import { fsmModels } from './fsm.models.js';
import { geoModels } from './geo.models.js';
import { helpdeskModels } from './helpdesk.models.js';
import { introspectionModels } from './introspection.models.js';
import { mailModels } from './mail.models.js';
import { paymentModels } from './payment.models.js';
import { pipelineModels } from './pipeline.models.js';
import { productModels } from './product.models.js';
import { purchaseModels } from './purchase.models.js';
import { purchaseSupplierExtensions, purchaseSupplierModels } from './purchase-supplier.models.js';
import { saleModels } from './sale.models.js';
import { saleAttributionExtensions } from './sale-attribution.models.js';
import { saleInvoiceExtensions, saleInvoiceModels } from './sale-invoice.models.js';
import { stockModels } from './stock.models.js';
import { stockProductExtensions } from './stock-product.models.js';

/** Every model of the embedded ERP. Add an area by adding its spec list here. */
export function defaultRegistry(): Registry {
  const r = new Registry();
  const areas = [
    baseModels,
    crmModels,
    helpdeskModels,
    productModels,
    accountModels,
    paymentModels,
    saleModels,
    purchaseModels,
    fsmModels,
    mailModels,
  ];
  areas.push(geoModels, pipelineModels, introspectionModels, saleInvoiceModels, purchaseSupplierModels, stockModels);
  const extensions: ModelExtension[] = [
    ...saleInvoiceExtensions,
    ...saleAttributionExtensions,
    ...purchaseSupplierExtensions,
    ...stockProductExtensions,
  ];
  for (const spec of areas.flat()) r.define(extend(spec, extensions));
  return r.finalize();
}

/** A copy of `spec` with the fields and computes other areas add to it (the module-level specs stay as they are). */
function extend(spec: ModelSpec, extensions: ModelExtension[]): ModelSpec {
  const mine = extensions.filter((x) => x.model === spec.name);
  if (!mine.length) return spec;
  return {
    ...spec,
    fields: Object.assign({}, spec.fields, ...mine.map((x) => x.fields)),
    computes: [...(spec.computes ?? []), ...mine.flatMap((x) => x.computes ?? [])],
  };
}
