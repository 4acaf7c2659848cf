/**
 * Who may read /metrics. With METRICS_TOKEN set: whoever sends it as a bearer token (from anywhere).
 * Without: only a direct loopback peer. A request that passed through a proxy (any forwarding header)
 * is refused even from loopback, because the reverse proxy itself connects from loopback and would
 * otherwise publish the metrics to the internet.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

import type { FastifyRequest } from 'fastify';

export type MetricsAccess = 'allowed' | 'token_required' | 'local_only';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'x-forwarded-host'];
const digest = (s: string) => createHash('sha256').update(s).digest();

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127(\.\d{1,3}){3}$/.test(a);
}

export function metricsAccess(req: FastifyRequest, token: string | undefined): MetricsAccess {
  if (token) {
    const h = req.headers.authorization ?? '';
    const given = h.startsWith('Bearer ') ? h.slice(7).trim() : '';
    // Digests first: equal lengths for timingSafeEqual, and no timing hint about the token's length.
    return given && timingSafeEqual(digest(given), digest(token)) ? 'allowed' : 'token_required';
  }
  if (FORWARDING_HEADERS.some((h) => req.headers[h] !== undefined)) return 'local_only';
  return isLoopback(req.socket.remoteAddress) ? 'allowed' : 'local_only';
}
