/**
 * The ERP behind the REST API, always through the `Erp` port: the embedded ERP of this process
 * (in-process adapter, service account `admin` with the platform API key the server keeps in
 * DATA_DIR/erp-platform-api-key), or an outside Odoo 15 (RESTAPI_ERP_URL with ERP_LOGIN/ERP_API_KEY).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOdooErp, createOdooRpcClient, type Erp } from '@platform/erp';
import { createEmbeddedErpAdapter } from '@platform/erp-embedded/embedded-erp.adapter.js';
import type { EmbeddedErp } from '@platform/erp-embedded';
import type { ErpConfig } from '../../erp.config.js';

export interface RestErp {
  erp: Erp;
  verifyLogin(login: string, password: string): Promise<boolean>;
}

type Cfg = Pick<ErpConfig, 'ERP_DB' | 'DATA_DIR' | 'RESTAPI_ERP_URL' | 'ERP_LOGIN' | 'ERP_API_KEY'>;

export function restApiErp(config: Cfg, embedded: EmbeddedErp): RestErp {
  if (config.RESTAPI_ERP_URL && config.ERP_API_KEY) {
    const rpc = createOdooRpcClient({ url: config.RESTAPI_ERP_URL });
    return {
      erp: createOdooErp({ url: config.RESTAPI_ERP_URL, db: config.ERP_DB, login: config.ERP_LOGIN ?? 'admin', secret: config.ERP_API_KEY }),
      verifyLogin: async (login, password) => {
        const uid = await rpc.call('common', 'authenticate', [config.ERP_DB, login, password, {}]);
        return typeof uid === 'number' && uid > 0;
      },
    };
  }
  const keyFile = join(config.DATA_DIR, 'erp-platform-api-key');
  return {
    erp: createEmbeddedErpAdapter(embedded, { db: config.ERP_DB, login: 'admin', secret: () => readFileSync(keyFile, 'utf8').trim() }),
    verifyLogin: async (login, password) => (await embedded.authenticate(config.ERP_DB, login, password)) !== false,
  };
}
