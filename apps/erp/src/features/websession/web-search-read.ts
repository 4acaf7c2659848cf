/** Odoo 15's `/web/dataset/search_read` (`web_search_read`): `{length, records}`, counting only when a page is full. */
import type { RpcGateway } from '../rpc/rpc-gateway.js';
import type { LiveSession } from './websession.service.js';

export async function webSearchRead(
  gateway: RpcGateway,
  s: LiveSession,
  p: Record<string, unknown>,
): Promise<{ length: number; records: unknown[] }> {
  const domain = p.domain ?? [];
  const offset = typeof p.offset === 'number' ? p.offset : 0;
  const limit = typeof p.limit === 'number' && p.limit > 0 ? p.limit : false;
  const kwargs: Record<string, unknown> = { fields: p.fields ?? false, offset, order: p.sort || false };
  if (limit) kwargs.limit = limit;
  const context = { lang: 'en_US', uid: s.uid };
  const records = (await gateway.callKw(s.db, s.uid, p.model, 'search_read', [domain], kwargs, context)) as unknown[];
  if (!records.length) return { length: 0, records: [] };
  const length =
    limit && records.length === limit
      ? ((await gateway.callKw(s.db, s.uid, p.model, 'search_count', [domain], {}, context)) as number)
      : records.length + offset;
  return { length, records };
}
