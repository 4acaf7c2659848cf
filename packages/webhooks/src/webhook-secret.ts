/**
 * Signing secrets of outbound webhook endpoints, in the Standard Webhooks form: `whsec_` and the
 * base64 of the key (32 random bytes; the specification asks for 24 to 64). Stored only sealed by the
 * secret box, bound to its tenant and endpoint, so a value copied to another row does not open.
 */
import { randomBytes } from 'node:crypto';

import type { SecretBox } from '@platform/secrets';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export const webhookSecretAad = (tenantId: string, endpointId: string) =>
  `webhook_endpoints:${tenantId}:${endpointId}:secret`;

export const sealWebhookSecret = (box: SecretBox, tenantId: string, endpointId: string, secret: string) =>
  box.seal(secret, webhookSecretAad(tenantId, endpointId));

export const openWebhookSecret = (box: SecretBox, tenantId: string, endpointId: string, sealed: string) =>
  box.open(sealed, webhookSecretAad(tenantId, endpointId));
